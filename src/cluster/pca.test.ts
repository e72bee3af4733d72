import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { fitPca, projectPca } from './pca.js';

interface Fx {
  n: number;
  d: number;
  k: number;
  x: number[];
  explained_variance: number[];
  explained_variance_ratio: number[];
  components: number[];
  projection: number[];
}

const close = (a: number, b: number, tol: number): boolean => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

test('PCA equals scikit-learn (fixture from Debian python3-sklearn): variances, components up to sign, projection', () => {
  const fx = (JSON.parse(readFileSync(join(packageRoot(), 'src/cluster/fixtures/sklearn-oracle.json'), 'utf8')) as { pca: Fx }).pca;
  const { n, d, k } = fx;
  const p = fitPca(Float64Array.from(fx.x), n, d, k);
  const y = projectPca(p, Float64Array.from(fx.x), n);
  for (let c = 0; c < k; c++) {
    // scikit-learn divides by n − 1, the engine by n.
    assert.ok(close(p.variance[c] * (n / (n - 1)), fx.explained_variance[c], 1e-9), `variance ${c}`);
    assert.ok(close(p.varianceRatio[c], fx.explained_variance_ratio[c], 1e-9), `ratio ${c}`);
    const sign = Math.sign(p.components[c * d]) === Math.sign(fx.components[c * d]) ? 1 : -1;
    for (let j = 0; j < d; j++) assert.ok(close(sign * p.components[c * d + j], fx.components[c * d + j], 1e-7), `component ${c}.${j}`);
    for (let i = 0; i < n; i++) assert.ok(close(sign * y[i * k + c], fx.projection[i * k + c], 1e-7), `projection ${i}.${c}`);
  }
  // Unit-length components, largest entry positive.
  for (let c = 0; c < k; c++) {
    const row = Array.from(p.components.subarray(c * d, c * d + d));
    assert.ok(close(Math.hypot(...row), 1, 1e-12));
    const big = row.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
    assert.ok(big > 0);
  }
});

test('PCA rejects impossible dimensions', () => {
  assert.throws(() => fitPca(new Float64Array(6), 3, 2, 3), /1 ≤ k ≤ 2/);
  assert.throws(() => projectPca(fitPca(new Float64Array(6), 3, 2, 1), new Float64Array(5), 3), /expected 3 × 2/);
});
