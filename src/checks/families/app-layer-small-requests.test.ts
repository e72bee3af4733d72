import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { significantRows, type Row } from './app-layer-small-requests.js';
import { significant } from './diagnosis-common.js';

const row = (id: number, small: number, layer: Row['layer'] = 'MPI-IO'): Row => ({ id: BigInt(id), layer, small, total: small + 1, collective: false, independent: 1, time: 0, bytes: 0 });

test('significantRows is significant() over the rows, then the POSIX files by number: same rows, same order', () => {
  // Weights with ties (the sort is stable: rows keep their list order), zeros, negatives and NaN (never listed).
  const weight = fc.oneof(fc.constantFrom(0, 1, 2, 50, 100, -3, Number.NaN), fc.integer({ min: 1, max: 1e6 }));
  fc.assert(
    fc.property(fc.array(weight, { maxLength: 8 }), fc.array(weight, { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 200 }), (rowSmall, posixSmall, pick) => {
      const rows = rowSmall.map((s, i) => row(i, s));
      const smalls = Float64Array.from(posixSmall);
      // `build` numbers only POSIX files with small requests, ascending: the same here, from a random subset.
      const numbers = Int32Array.from([...new Set(pick.filter((p) => p < smalls.length && smalls[p] > 0))].sort((a, b) => a - b));
      const posixRow = (i: number) => row(1000 + i, smalls[i], 'POSIX');
      const all = [...rows, ...[...numbers].map(posixRow)];
      assert.deepEqual(significantRows(rows, numbers, smalls, posixRow), significant(all, (x) => x.small));
    }),
    { numRuns: 2000, seed: 18 },
  );
  // By hand: an MPI-IO file of 489 small requests, POSIX files of 1 (100 of them), 500 and 11: 1,100 in all, so a
  // file needs 11 (1 %) to be listed, and the POSIX files count in that total.
  const smalls = Float64Array.from([...Array(100).fill(1), 500, 11]);
  const numbers = Int32Array.from(smalls.keys());
  const got = significantRows([row(7, 489)], numbers, smalls, (i) => row(1000 + i, smalls[i], 'POSIX'));
  assert.deepEqual(got.map((r) => [r.id, r.layer, r.small]), [[1100n, 'POSIX', 500], [7n, 'MPI-IO', 489], [1101n, 'POSIX', 11]]);
});
