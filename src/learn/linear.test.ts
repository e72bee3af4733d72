import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitRidge, predictRidge, ridgeShap, topCorrelated } from './linear.js';
import { Rng } from './rng.js';
import { bruteShapley } from './testing/brute-shapley.js';

function table(n: number, p: number, seed: number, f: (x: Float64Array) => number): { x: { nRows: number; nCols: number; data: Float64Array }; y: Float64Array } {
  const rng = new Rng(seed);
  const data = Float64Array.from({ length: n * p }, () => rng.normal() * 2 + 1);
  const y = Float64Array.from({ length: n }, (_, r) => f(data.subarray(r * p, (r + 1) * p)));
  return { x: { nRows: n, nCols: p, data }, y };
}

test('ridge recovers an exact linear function; larger α shrinks the weights', () => {
  const { x, y } = table(300, 4, 1, (v) => 3 + 2 * v[0] - 0.5 * v[2]);
  const [exact, shrunk] = fitRidge(x, y, [1e-9, 1000]);
  const p = predictRidge(exact, x);
  for (let i = 0; i < y.length; i++) assert.ok(Math.abs(p[i] - y[i]) < 1e-6);
  const norm = (w: number[]): number => Math.hypot(...w);
  assert.ok(norm(shrunk.weights) < norm(exact.weights) * 0.8);
  assert.equal(exact.interactions.length, 0);
});

test('poly-2 ridge recovers products and squares of the interaction columns', () => {
  const { x, y } = table(400, 3, 2, (v) => v[0] * v[1] + 0.5 * v[2] * v[2] - v[0]);
  const [m] = fitRidge(x, y, [1e-9], [0, 1, 2]);
  assert.equal(m.interactions.length, 6);
  const p = predictRidge(m, x);
  for (let i = 0; i < y.length; i++) assert.ok(Math.abs(p[i] - y[i]) < 1e-6);
  assert.deepEqual(topCorrelated(x, Float64Array.from(y, (_, r) => x.data[r * 3 + 2]), 1), [2]);
});

test('linear and pairwise SHAP equal brute-force Shapley values against a baseline; equal features get 0', () => {
  const rng = new Rng(3);
  const { x, y } = table(200, 6, 4, (v) => v[0] * v[3] - 2 * v[1] + v[5] * v[5] + rng.normal() * 0.1);
  const [m] = fitRidge(x, y, [0.5], [0, 1, 3, 5]);
  const b = Float64Array.of(0, 1, 0, 0, NaN, 2);
  for (let r = 0; r < 10; r++) {
    const row = Float64Array.from(x.data.subarray(r * 6, r * 6 + 6));
    row[2] = b[2];
    if (r % 3 === 0) row[4] = NaN;
    const { base, phi } = ridgeShap(m, row, 0, b, 6);
    const f = (v: Float64Array): number => predictRidge(m, { nRows: 1, nCols: 6, data: v })[0];
    const want = bruteShapley(6, (mask) => f(Float64Array.from(b, (bv, j) => (mask & (1 << j) ? row[j] : bv))));
    for (let j = 0; j < 6; j++) assert.ok(Math.abs(phi[j] - want[j]) < 1e-9, `col ${j}: ${phi[j]} vs ${want[j]}`);
    assert.equal(phi[2], 0);
    if (r % 3 === 0) assert.equal(phi[4], 0, 'missing equals missing');
    assert.ok(Math.abs(base - f(b)) < 1e-12);
    assert.ok(Math.abs(base + phi.reduce((a, c) => a + c, 0) - f(row)) < 1e-9);
  }
});
