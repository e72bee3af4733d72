import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NameTable } from './names.js';

// ids sharing a 32-bit half with each other, so the table's probing on the halves is exercised
const id = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(0, 1, 0xffffffff, 0x80000000)).map(([a, b]) => (BigInt(b) << 32n) | BigInt(a * 0x10001));

test('NameTable.getAll: get of every id, including ids without a name and names added after a first getAll', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(id, fc.constantFrom('', 'a', '/scratch/a-name-longer-than-15'))), fc.array(id, { maxLength: 30 }), fc.array(fc.tuple(id, fc.constantFrom('late', ''))), (adds, asked, later) => {
      const t = new NameTable();
      for (const [i, n] of adds) t.add(i, n, false);
      const ids = BigUint64Array.from(asked);
      assert.deepEqual(t.getAll(ids), asked.map((i) => t.get(i)));
      for (const [i, n] of later) t.add(i, n, false);
      assert.deepEqual(t.getAll(ids), asked.map((i) => t.get(i)));
    }),
    { numRuns: 500 },
  );
});
