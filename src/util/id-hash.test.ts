import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IdSlots, IntPairMap } from './id-hash.js';

test('IntPairMap agrees with a Map on any sequence of sets, gets and clears (growth, negative and extreme keys)', () => {
  const int = fc.oneof(fc.integer({ min: -3, max: 40 }), fc.constantFrom(-1, 0, 2 ** 31 - 1, -(2 ** 31), 2 ** 17, 2 ** 26));
  const op = fc.oneof(
    { arbitrary: fc.tuple(fc.constant('set' as const), int, int, fc.nat({ max: 2 ** 31 - 2 })), weight: 6 },
    { arbitrary: fc.tuple(fc.constant('get' as const), int, int, fc.constant(0)), weight: 4 },
    { arbitrary: fc.tuple(fc.constant('clear' as const), fc.constant(0), fc.constant(0), fc.constant(0)), weight: 1 },
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 400 }), fc.integer({ min: 0, max: 64 }), (ops, capacity) => {
      const m = new IntPairMap(capacity);
      const ref = new Map<string, number>();
      for (const [kind, a, b, v] of ops) {
        if (kind === 'set') {
          m.set(a, b, v);
          ref.set(`${a},${b}`, v);
        } else if (kind === 'clear') {
          m.clear();
          ref.clear();
        }
        assert.equal(m.get(a, b), ref.get(`${a},${b}`) ?? -1);
        assert.equal(m.size, ref.size);
      }
      for (const [k, v] of ref) {
        const [a, b] = k.split(',').map(Number);
        assert.equal(m.get(a, b), v);
      }
    }),
    { numRuns: 300, seed: 3 },
  );
});

test('IntPairMap holds a million cells of (pair, window) keys, as the cube makes them', () => {
  const m = new IntPairMap();
  let n = 0;
  for (let pair = 0; pair < 1000; pair++) for (let w = -500; w < 500; w++) m.set(pair, w, n++);
  assert.equal(m.size, 1_000_000);
  assert.equal(m.get(0, -500), 0);
  assert.equal(m.get(999, 499), 999_999);
  assert.equal(m.get(500, 0), 500 * 1000 + 500);
  assert.equal(m.get(1000, 0), -1);
  assert.equal(m.get(0, 500), -1);
});

test('IdSlots: an id added is found in its slot, a new one gets a free slot', () => {
  const s = new IdSlots(3);
  const a = s.add(1, 2);
  const b = s.add(2, 1);
  assert.notEqual(a, b);
  assert.equal(s.add(1, 2), a);
  assert.equal(s.find(2, 1), b);
  assert.equal(s.count, 2);
  assert.equal(s.used[s.find(3, 3)], 0);
});
