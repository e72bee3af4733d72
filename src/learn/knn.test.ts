import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitKnn, knnGame, nearest, predictKnn } from './knn.js';

test('nearest rows by squared distance, ties by lower index; uniform and distance weighting', () => {
  const rows = Float32Array.of(0, 0, 1, 0, 0, 2, 3, 3, 1, 0);
  const q = Float64Array.of(0.9, 0.1);
  const nb = nearest(rows, 2, q, 1, 3);
  assert.deepEqual(Array.from(nb.index), [1, 4, 0]);
  const x = { nRows: 5, nCols: 2, data: Float64Array.from(rows) };
  const y = Float64Array.of(10, 20, 30, 40, 50);
  const stats = { mean: [0, 0], std: [1, 1] };
  const uni = fitKnn(x, y, 2, 'uniform', stats);
  assert.deepEqual(Array.from(predictKnn(uni, { nRows: 1, nCols: 2, data: q })), [35]);
  const dist = fitKnn(x, y, 2, 'distance', stats);
  const d1 = Math.hypot(0.1, 0.1);
  const w = 1 / (d1 + 1e-9);
  const p = predictKnn(dist, { nRows: 1, nCols: 2, data: q })[0];
  assert.ok(Math.abs(p - (w * 20 + w * 50) / (2 * w)) < 1e-9);
  // Standardisation applies to queries and training rows alike; a missing value is the mean.
  const scaled = fitKnn(x, y, 1, 'uniform', { mean: [0, 0], std: [1, 100] });
  assert.deepEqual(Array.from(predictKnn(scaled, { nRows: 1, nCols: 2, data: Float64Array.of(2.9, NaN) })), [40]);
});

test('the kNN game equals kNN predictions on hybrid rows (x on a coalition, the baseline elsewhere)', () => {
  const rows = Float32Array.of(0, 0, 1, 1, 0, 2, 3, 3, 1, 0, 2, 1);
  const x = { nRows: 6, nCols: 2, data: Float64Array.from(rows) };
  const y = Float64Array.of(10, 20, 30, 40, 50, 60);
  for (const weighting of ['uniform', 'distance'] as const) {
    const m = fitKnn(x, y, 2, weighting, { mean: [0.5, 0.5], std: [2, 1] });
    const q = Float64Array.of(2.5, 0.2);
    const b = Float64Array.of(0, NaN);
    const game = knnGame(m, q, b, [[0], [1]]);
    const v = game([Uint8Array.of(0, 0), Uint8Array.of(1, 0), Uint8Array.of(0, 1), Uint8Array.of(1, 1)]);
    const hybrids = [b, Float64Array.of(q[0], b[1]), Float64Array.of(b[0], q[1]), q];
    hybrids.forEach((h, i) => assert.ok(Math.abs(v[i] - predictKnn(m, { nRows: 1, nCols: 2, data: h })[0]) < 1e-12));
  }
});
