import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logMetrics } from './metrics.js';
import { fitMlp, predictMlp } from './mlp.js';
import { Rng } from './rng.js';

function data(n: number, seed: number): { x: { nRows: number; nCols: number; data: Float64Array }; y: Float64Array } {
  const rng = new Rng(seed);
  const p = 5;
  const d = Float64Array.from({ length: n * p }, () => rng.normal());
  const y = Float64Array.from({ length: n }, (_, r) => 1 + d[r * p] * 0.8 - Math.abs(d[r * p + 1]) + 0.3 * d[r * p + 2] * d[r * p + 3]);
  return { x: { nRows: n, nCols: p, data: d }, y };
}

test('MLP (TensorFlow.js, wasm backend): seeded runs give identical weights; it learns a nonlinear function', async () => {
  const tr = data(800, 1);
  const va = data(200, 2);
  const te = data(300, 3);
  const stats = { mean: [0, 0, 0, 0, 0], std: [1, 1, 1, 1, 1] };
  const params = { hidden: [16, 8], maxEpochs: 40, patience: 8, learningRate: 5e-3, batchSize: 64, seed: 4 };
  const a = await fitMlp(tr.x, tr.y, stats, params, va);
  const b = await fitMlp(tr.x, tr.y, stats, params, va);
  assert.equal(a.backend, 'wasm');
  assert.deepEqual(a.model, b.model);
  assert.equal(a.epochs, b.epochs);
  assert.equal(a.validationLoss[a.epochs - 1], Math.min(...a.validationLoss));
  const r2 = logMetrics(te.y, predictMlp(a.model, te.x)).r2;
  assert.ok(r2 > 0.85, `MLP R² ${r2}`);
  const c = await fitMlp(tr.x, tr.y, stats, { ...params, seed: 5 }, va);
  assert.notDeepEqual(c.model.layers[0].weights, a.model.layers[0].weights);
});
