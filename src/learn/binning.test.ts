import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyBins, binOf, fitBins } from './binning.js';
import { Rng } from './rng.js';

test('few distinct values: one bin each, edges at midpoints, missing values in their own slot', () => {
  const data = Float64Array.of(1, 3, 3, NaN, 7, 1);
  const m = { nRows: 6, nCols: 1, data };
  const bins = fitBins(m);
  assert.deepEqual(Array.from(bins.thresholds[0]), [2, 5]);
  assert.equal(bins.nBins[0], 3);
  const b = applyBins(bins, m);
  assert.equal(b.stride, 4);
  assert.deepEqual(Array.from(b.byColumn), [0, 1, 1, 3, 2, 0]);
  assert.equal(binOf(bins, 0, 2), 0, 'a value on an edge falls in the lower bin (x ≤ edge)');
  assert.equal(binOf(bins, 0, 2.0000001), 1);
  assert.equal(binOf(bins, 0, 100), 2);
});

test('many distinct values: at most 255 bins by quantiles; bin ≤ b exactly when x ≤ thresholds[b]', () => {
  const rng = new Rng(1);
  const n = 5000;
  const data = Float64Array.from({ length: n * 2 }, (_, i) => (i % 2 ? Math.round(rng.normal() * 3) : rng.normal() ** 3));
  const m = { nRows: n, nCols: 2, data };
  const bins = fitBins(m);
  assert.equal(bins.nBins[0], 255);
  assert.ok(bins.nBins[1] < 40);
  const counts = new Int32Array(255);
  for (let r = 0; r < n; r++) counts[binOf(bins, 0, data[r * 2])]++;
  // Quantile bins: about n/255 rows each.
  assert.ok(Math.max(...counts) <= Math.ceil(n / 255) + 2 && Math.min(...counts) >= Math.floor(n / 255) - 2, `${Math.min(...counts)}…${Math.max(...counts)}`);
  for (let k = 0; k < 2000; k++) {
    const x = rng.normal() * 4;
    const c = k % 2;
    const t = bins.thresholds[c];
    const bx = binOf(bins, c, x);
    for (let b = 0; b < t.length; b++) assert.equal(bx <= b, x <= t[b]);
  }
  assert.throws(() => fitBins(m, 256), /maxBins/);
});
