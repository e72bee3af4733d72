import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { predictTrees } from './ensemble-trees.js';
import { fitForest } from './forest.js';
import { fitGbdt } from './gbdt.js';
import { logMetrics } from './metrics.js';
import { Rng } from './rng.js';
import { oracleAvailable, runPython } from './testing/oracle.js';
import { treeDepth } from './tree.js';

test('a one-split GBDT on four rows has the hand-computed leaves (shrinkage and L2 included)', () => {
  const x = { nRows: 4, nCols: 1, data: Float64Array.of(0, 0, 1, 1) };
  const y = Float64Array.of(1, 1, 3, 3);
  const fit = fitGbdt(x, y, { maxIter: 1, maxLeafNodes: 2, minSamplesLeaf: 1, learningRate: 0.5, l2: 2 });
  const t = fit.model.trees[0];
  assert.equal(fit.model.base, 2);
  assert.deepEqual(Array.from(t.feature), [0, -1, -1]);
  assert.deepEqual(Array.from(t.threshold), [0.5, 0, 0]);
  // Leaf value = −G/(n+λ)·η: gradients −1·2 rows → 2/(2+2)·0.5 = 0.25 (and −0.25).
  assert.equal(t.value[1], -0.25);
  assert.equal(t.value[2], 0.25);
  assert.deepEqual(Array.from(t.cover), [4, 2, 2]);
  assert.deepEqual(Array.from(predictTrees(fit.model, x)), [1.75, 1.75, 2.25, 2.25]);
});

test('missing values: the learned default direction sends NaN with the rows it resembles', () => {
  const n = 200;
  const data = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // x < 50 → y = 0; x ≥ 50 → y = 10; missing x behaves like the large values.
    if (i % 4 === 0) {
      data[i] = NaN;
      y[i] = 10;
    } else {
      data[i] = i % 100;
      y[i] = data[i] < 50 ? 0 : 10;
    }
  }
  const fit = fitGbdt({ nRows: n, nCols: 1, data }, y, { maxIter: 30, maxLeafNodes: 2, minSamplesLeaf: 5, learningRate: 0.5 });
  const p = predictTrees(fit.model, { nRows: 3, nCols: 1, data: Float64Array.of(NaN, 10, 90) });
  assert.ok(Math.abs(p[0] - 10) < 0.01 && Math.abs(p[1]) < 0.01 && Math.abs(p[2] - 10) < 0.01, `${p}`);
  // Without missing values at training time, NaN follows the larger child.
  const noMiss = fitGbdt({ nRows: 4, nCols: 1, data: Float64Array.of(0, 0, 0, 1) }, Float64Array.of(0, 0, 0, 4), { maxIter: 1, maxLeafNodes: 2, minSamplesLeaf: 1, learningRate: 1 });
  assert.equal(noMiss.model.trees[0].defaultLeft[0], 1);
});

function friedman(n: number, seed: number, p = 8): { x: { nRows: number; nCols: number; data: Float64Array }; y: Float64Array } {
  const rng = new Rng(seed);
  const data = new Float64Array(n * p);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < p; c++) data[r * p + c] = rng.next() < 0.05 ? NaN : rng.next();
    const v = (c: number): number => (Number.isNaN(data[r * p + c]) ? 0.5 : data[r * p + c]);
    y[r] = 10 * Math.sin(Math.PI * v(0) * v(1)) + 20 * (v(2) - 0.5) ** 2 + 10 * v(3) + 5 * v(4) + rng.normal();
  }
  return { x: { nRows: n, nCols: p, data }, y };
}

test('early stopping keeps the iteration with the lowest validation loss; same seed, same model', () => {
  const tr = friedman(1500, 1);
  const va = friedman(500, 2);
  const fit = fitGbdt(tr.x, tr.y, { maxIter: 2000, learningRate: 0.3, nIterNoChange: 10 }, va);
  assert.ok(fit.validationLoss.length < 2000, 'stopped early');
  const bestLoss = Math.min(...fit.validationLoss);
  assert.equal(fit.validationLoss[fit.bestIterations - 1], bestLoss);
  assert.equal(fit.validationLoss.length, fit.bestIterations + 10);
  const again = fitGbdt(tr.x, tr.y, { maxIter: 2000, learningRate: 0.3, nIterNoChange: 10 }, va);
  assert.deepEqual(again.model, fit.model);
});

test('random forest: capped depth, seeded, an average of trees', () => {
  const tr = friedman(1500, 3);
  const te = friedman(500, 4);
  const f = fitForest(tr.x, tr.y, { nTrees: 30, maxDepth: 6, maxFeatures: 0.5, seed: 9 });
  assert.equal(f.trees.length, 30);
  assert.ok(f.trees.every((t) => treeDepth(t) <= 6));
  assert.deepEqual(fitForest(tr.x, tr.y, { nTrees: 30, maxDepth: 6, maxFeatures: 0.5, seed: 9 }), f);
  assert.notDeepEqual(fitForest(tr.x, tr.y, { nTrees: 30, maxDepth: 6, maxFeatures: 0.5, seed: 10 }).trees[0], f.trees[0]);
  // Without bootstrap or column sampling every tree is the same full-depth regression tree: the forest is that tree.
  const one = fitForest(tr.x, tr.y, { nTrees: 3, maxDepth: 4, maxFeatures: 1, bootstrap: false });
  assert.deepEqual(one.trees[0].feature, one.trees[2].feature);
  const r2 = logMetrics(te.y, predictTrees(f, te.x)).r2;
  assert.ok(r2 > 0.7, `forest R² ${r2}`);
});

test('GBDT accuracy is within 0.01 R² of scikit-learn HistGradientBoostingRegressor on the same data', (t) => {
  const avail = oracleAvailable('sklearn');
  if (avail === 'skip') return t.skip('python3-sklearn not installed (IOLENS_SKIP_ORACLES=1)');
  assert.equal(avail, true, '/usr/bin/python3 cannot import sklearn: install python3-sklearn (see .ci/run)');
  const tr = friedman(4000, 5);
  const te = friedman(2000, 6);
  const params = { maxIter: 200, maxLeafNodes: 31, minSamplesLeaf: 20, learningRate: 0.1, l2: 0 };
  const ours = logMetrics(te.y, predictTrees(fitGbdt(tr.x, tr.y, params).model, te.x)).r2;
  const run = runPython(
    `
import sys, numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
d = sys.argv[1]
X = np.fromfile(d + '/xtr.f64').reshape(-1, 8); y = np.fromfile(d + '/ytr.f64')
Xt = np.fromfile(d + '/xte.f64').reshape(-1, 8); yt = np.fromfile(d + '/yte.f64')
m = HistGradientBoostingRegressor(max_iter=200, max_leaf_nodes=31, min_samples_leaf=20, learning_rate=0.1, l2_regularization=0.0, early_stopping=False, random_state=0).fit(X, y)
print(m.score(Xt, yt))
`,
    (dir) => {
      writeFileSync(join(dir, 'xtr.f64'), Buffer.from(tr.x.data.buffer));
      writeFileSync(join(dir, 'ytr.f64'), Buffer.from(tr.y.buffer));
      writeFileSync(join(dir, 'xte.f64'), Buffer.from(te.x.data.buffer));
      writeFileSync(join(dir, 'yte.f64'), Buffer.from(te.y.buffer));
    },
  );
  run.cleanup();
  const theirs = Number(run.stdout.trim());
  assert.ok(theirs > 0.8, `sklearn R² ${theirs}`);
  assert.ok(Math.abs(ours - theirs) < 0.01, `ours ${ours} vs scikit-learn ${theirs}`);
});
