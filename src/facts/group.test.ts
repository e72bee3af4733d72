import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { groupById, maxByGroup, minByGroup, sumByGroup } from './group.js';

test('groupById: distinct ids ascending (unsigned), each row mapped to its id', () => {
  fc.assert(
    fc.property(fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxLength: 200 }), fc.array(fc.boolean(), { maxLength: 200 }), (list, keep) => {
      const ids = BigUint64Array.from(list.concat(list.slice(0, 10)));
      const include = (r: number) => keep[r] ?? true;
      const g = groupById(ids, include);
      const want = [...new Set([...ids].filter((_v, r) => include(r)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      assert.deepEqual([...g.keys], want);
      for (let r = 0; r < ids.length; r++) assert.equal(g.groupOf[r] >= 0 ? g.keys[g.groupOf[r]] : null, include(r) ? ids[r] : null);
    }),
  );
});

test('sum/min/max by group', () => {
  const g = groupById(BigUint64Array.of(5n, 2n, 5n, 2n ** 63n + 1n));
  assert.deepEqual([...g.keys], [2n, 5n, 2n ** 63n + 1n]);
  const col = Float64Array.of(1, 2, 3, 4);
  assert.deepEqual([...sumByGroup(g, col)], [2, 4, 4]);
  assert.deepEqual([...minByGroup(g, col)], [2, 1, 4]);
  assert.deepEqual([...maxByGroup(g, col)], [2, 3, 4]);
});
