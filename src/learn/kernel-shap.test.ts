import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kernelShap } from './kernel-shap.js';
import { Rng } from './rng.js';
import { bruteShapley } from './testing/brute-shapley.js';

const batch =
  (f: (x: Float64Array) => number, nCols: number) =>
  (rows: Float64Array, n: number): Float64Array =>
    Float64Array.from({ length: n }, (_, r) => f(rows.subarray(r * nCols, (r + 1) * nCols)));

test('exact enumeration (≤ 12 players) equals brute-force Shapley values; baseline-equal players get 0', () => {
  const rng = new Rng(1);
  const nCols = 9;
  const f = (v: Float64Array): number => Math.tanh(v[0] * v[1]) + Math.max(v[2], v[3]) * v[4] + (v[5] > 0 ? v[6] : -v[7]) + v[8] ** 2;
  for (let t = 0; t < 5; t++) {
    const x = Float64Array.from({ length: nCols }, () => rng.normal());
    const b = new Float64Array(nCols);
    x[4] = 0;
    const groups = Int32Array.from({ length: nCols }, (_, i) => i);
    const got = kernelShap(batch(f, nCols), x, b, groups, nCols);
    const want = bruteShapley(nCols, (mask) => f(Float64Array.from(b, (bv, j) => (mask & (1 << j) ? x[j] : bv))));
    for (let j = 0; j < nCols; j++) assert.ok(Math.abs(got.phi[j] - want[j]) < 1e-12);
    assert.equal(got.phi[4], 0);
    assert.ok(Math.abs(got.base + got.phi.reduce((a, c) => a + c, 0) - f(x)) < 1e-12);
  }
});

test('players can be groups of columns (one-hot features)', () => {
  // Columns 1 and 2 form one player.
  const f = (v: Float64Array): number => 2 * v[0] + 3 * v[1] - v[2] + v[0] * v[3];
  const x = Float64Array.of(1, 1, 0, 2);
  const b = Float64Array.of(0, 0, 1, 0);
  const got = kernelShap(batch(f, 4), x, b, Int32Array.of(0, 1, 1, 2), 3);
  assert.deepEqual(Array.from(got.phi), [2 + 1, 4, 1]);
});

test('KernelSHAP beyond 12 players: exact for an additive model, additive and seeded for any model', () => {
  const rng = new Rng(2);
  const nCols = 30;
  const w = Float64Array.from({ length: nCols }, () => rng.normal());
  const lin = (v: Float64Array): number => v.reduce((s, vi, i) => s + w[i] * vi, 0.5);
  const x = Float64Array.from({ length: nCols }, () => rng.normal());
  x[7] = 0;
  const b = new Float64Array(nCols);
  const groups = Int32Array.from({ length: nCols }, (_, i) => i);
  const got = kernelShap(batch(lin, nCols), x, b, groups, nCols, { samples: 600, seed: 3 });
  for (let j = 0; j < nCols; j++) assert.ok(Math.abs(got.phi[j] - w[j] * x[j]) < 1e-8, `${j}: ${got.phi[j]} vs ${w[j] * x[j]}`);
  assert.equal(got.phi[7], 0);
  const nl = (v: Float64Array): number => Math.sin(v[0] * v[1]) + v.reduce((s, vi) => s + vi * vi, 0) / 10;
  const a = kernelShap(batch(nl, nCols), x, b, groups, nCols, { samples: 600, seed: 3 });
  const c = kernelShap(batch(nl, nCols), x, b, groups, nCols, { samples: 600, seed: 3 });
  assert.deepEqual(a.phi, c.phi);
  assert.ok(Math.abs(a.base + a.phi.reduce((s, v) => s + v, 0) - nl(x)) < 1e-12);
  // x_0·x_1 interaction shared, squares to their own feature: the big squares dominate.
  const big = a.phi.reduce((bi, v, i) => (Math.abs(v) > Math.abs(a.phi[bi]) ? i : bi), 0);
  const want = x.reduce((bi, v, i) => (v * v > x[bi] * x[bi] ? i : bi), 0);
  assert.equal(big, want);
});
