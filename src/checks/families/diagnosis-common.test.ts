import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasRow, idsAscending, rowOf, rowsHolding, rowsIn } from './diagnosis-common.js';

const col = (...ids: bigint[]) => BigUint64Array.from(ids);
const TOP = 2n ** 64n - 1n;
const HALF = 2n ** 32n;

/** The join as a Map over `into` would give it: the last row of each id, −1 when absent. */
function joinByMap(from: BigUint64Array, into: BigUint64Array): number[] {
  const m = new Map<bigint, number>();
  into.forEach((id, j) => m.set(id, j));
  return [...from].map((id) => m.get(id) ?? -1);
}

/** Deterministic ids spread over the whole unsigned range, some sharing a 32-bit half with their neighbours. */
function ids(n: number, seed: number): bigint[] {
  let s = BigInt(seed) | 1n;
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    s = (s * 6364136223846793005n + 1442695040888963407n) & TOP;
    const kind = i % 4;
    out.push(kind === 0 ? s : kind === 1 ? s & (HALF - 1n) : kind === 2 ? s & ~(HALF - 1n) & TOP : (s >> 60n) * HALF + 7n);
  }
  return out;
}

const ascending = (xs: bigint[]) => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

test('idsAscending: strict unsigned order, decided on both 32-bit halves', () => {
  const cases: [BigUint64Array, boolean][] = [
    [col(), true],
    [col(5n), true],
    [col(1n, 2n, 3n), true],
    [col(1n, 1n), false],
    [col(3n, 2n), false],
    [col(HALF - 1n, HALF), true],
    [col(HALF, HALF - 1n), false],
    [col(HALF + 5n, 2n * HALF + 1n), true],
    [col(2n * HALF + 1n, HALF + 5n), false],
    [col(1n, 2n ** 63n, TOP), true],
    [col(2n ** 63n, 1n), false],
    [col(TOP, TOP), false],
  ];
  for (const [c, want] of cases) assert.equal(idsAscending(c), want, [...c].join(','));
  // A view into a larger buffer is read from its own offset.
  const buf = col(9n, 1n, 2n, 0n);
  assert.equal(idsAscending(buf.subarray(1, 3)), true);
  assert.equal(idsAscending(buf.subarray(0, 2)), false);
});

test('rowsIn and rowOf agree with a Map join whatever the order, sizes and repeats of the columns', () => {
  const big = ascending(ids(3000, 7));
  const cases: [string, BigUint64Array, BigUint64Array][] = [
    ['both empty', col(), col()],
    ['into empty', col(...big.slice(0, 10)), col()],
    ['ascending from, few into (some absent, some repeated)', col(...big), col(big[5], 123n, big[big.length - 1], big[0], big[5])],
    ['ascending into, few from', col(big[7], 1n, big[8], big[7]), col(...big)],
    ['shuffled from, ascending into', col(...ids(500, 3), ...big.slice(100, 400).reverse()), col(...big)],
    ['ascending from, shuffled into', col(...big), col(...big.slice(0, 50).reverse(), 42n)],
    ['neither ascending, repeats on both sides', col(...ids(300, 11), ...ids(300, 11)), col(...ids(200, 11), ...ids(100, 13))],
    ['equal sizes, both ascending', col(...big.filter((_, i) => i % 2 === 0)), col(...big.filter((_, i) => i % 3 === 0).slice(0, 1500))],
  ];
  for (const [what, from, into] of cases) {
    const want = joinByMap(from, into);
    assert.deepEqual([...rowsIn(from, into)], want, what);
    const find = rowOf(into);
    assert.deepEqual([...from].map(find), want, `${what} (rowOf)`);
  }
});

test('rowsIn is computed once per pair of columns', () => {
  const a = col(1n, 2n, 3n), b = col(2n), c = col(2n);
  assert.equal(rowsIn(a, b), rowsIn(a, b));
  assert.notEqual(rowsIn(a, b), rowsIn(a, c));
  assert.deepEqual([...rowsIn(a, c)], [-1, 0, -1]);
});

test('rowsHolding marks exactly the rows whose id is wanted; hasRow asks the row', () => {
  const big = ascending(ids(2000, 5));
  const columns = [col(...big), col(...big.slice().reverse()), col(...ids(400, 9), ...ids(400, 9))];
  // A few wanted ids are searched for; many are looked up row by row.
  for (const wanted of [[big[0], big[big.length - 1], big[1000], 99n, big[1000]], [...big.slice(0, 600), 99n]]) for (const c of columns) {
    const set = new Set(wanted);
    assert.deepEqual([...rowsHolding(c, wanted)], [...c].map((id) => (set.has(id) ? 1 : 0)));
    assert.deepEqual([...rowsHolding(c, [])], new Array(c.length).fill(0));
    const even = hasRow(c, (row) => row % 2 === 0);
    const last = new Map<bigint, number>();
    c.forEach((id, i) => last.set(id, i));
    for (const id of wanted) assert.equal(even(id), last.has(id) && last.get(id)! % 2 === 0, String(id));
  }
});
