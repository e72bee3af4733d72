import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { predictTrees, type TreeEnsemble } from './ensemble-trees.js';
import { fitGbdt } from './gbdt.js';
import { fitForest } from './forest.js';
import { Rng } from './rng.js';
import { bruteShapley } from './testing/brute-shapley.js';
import { oracleAvailable, readF64, runPython } from './testing/oracle.js';
import { predictTree, type Tree } from './tree.js';
import { ensembleShapBaseline, ensembleShapPath, expectedValue } from './treeshap.js';
import { loadXgboostJson } from './xgboost-json.js';

/** A random tree over `nCols` columns with consistent covers (a parent's cover is the sum of its children's). */
function randomTree(rng: Rng, nCols: number, maxDepth: number): Tree {
  const feature: number[] = [];
  const threshold: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const value: number[] = [];
  const cover: number[] = [];
  const defaultLeft: number[] = [];
  const build = (depth: number): number => {
    const id = feature.length;
    feature.push(-1);
    threshold.push(0);
    left.push(-1);
    right.push(-1);
    value.push(0);
    cover.push(0);
    defaultLeft.push(rng.int(2));
    if (depth < maxDepth && (depth < 2 || rng.next() < 0.7)) {
      feature[id] = rng.int(nCols);
      threshold[id] = Math.round((rng.next() * 2 - 1) * 100) / 100;
      left[id] = build(depth + 1);
      right[id] = build(depth + 1);
      cover[id] = cover[left[id]] + cover[right[id]];
    } else {
      value[id] = rng.normal();
      cover[id] = 1 + rng.int(50);
    }
    return id;
  };
  build(0);
  return {
    feature: Int32Array.from(feature),
    threshold: Float64Array.from(threshold),
    left: Int32Array.from(left),
    right: Int32Array.from(right),
    value: Float64Array.from(value),
    cover: Float64Array.from(cover),
    defaultLeft: Uint8Array.from(defaultLeft),
  };
}

/** E[tree(x) | x_S]: features in S follow x, others average their children by cover (Lundberg's Algorithm 1). */
function condExpectation(tree: Tree, x: Float64Array, mask: number): number {
  const walk = (node: number): number => {
    const f = tree.feature[node];
    if (f < 0) return tree.value[node];
    if (mask & (1 << f)) {
      const v = x[f];
      const l = v <= tree.threshold[node] ? true : v > tree.threshold[node] ? false : tree.defaultLeft[node] === 1;
      return walk(l ? tree.left[node] : tree.right[node]);
    }
    const a = tree.left[node];
    const b = tree.right[node];
    return (tree.cover[a] * walk(a) + tree.cover[b] * walk(b)) / tree.cover[node];
  };
  return walk(0);
}

function randomRow(rng: Rng, nCols: number, nanRate: number): Float64Array {
  return Float64Array.from({ length: nCols }, () => (rng.next() < nanRate ? NaN : Math.round((rng.next() * 2 - 1) * 100) / 100));
}

function ensemblePath(model: TreeEnsemble, x: Float64Array, mask: number): number {
  let s = model.base;
  for (const t of model.trees) s += condExpectation(t, x, mask);
  return s;
}

function ensembleAt(model: TreeEnsemble, x: Float64Array): number {
  let s = model.base;
  for (const t of model.trees) s += predictTree(t, x);
  return s;
}

test('path-dependent TreeSHAP equals brute-force Shapley values of E[f | x_S] on random trees (≤ 10 features)', () => {
  const rng = new Rng(7);
  let checked = 0;
  for (let trial = 0; trial < 40; trial++) {
    const nCols = 2 + rng.int(9);
    const model: TreeEnsemble = { base: rng.normal(), trees: Array.from({ length: 1 + rng.int(3) }, () => randomTree(rng, nCols, 2 + rng.int(6))) };
    for (let k = 0; k < 5; k++) {
      const x = randomRow(rng, nCols, 0.15);
      const { base, phi } = ensembleShapPath(model, x, 0, nCols);
      const want = bruteShapley(nCols, (mask) => ensemblePath(model, x, mask));
      for (let j = 0; j < nCols; j++) assert.ok(Math.abs(phi[j] - want[j]) < 1e-9, `trial ${trial} col ${j}: ${phi[j]} vs ${want[j]}`);
      assert.ok(Math.abs(base - ensemblePath(model, x, 0)) < 1e-12);
      const total = base + phi.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(total - ensembleAt(model, x)) < 1e-9, 'additivity');
      checked++;
    }
  }
  assert.equal(checked, 200);
});

test('interventional TreeSHAP equals brute-force Shapley values of f(x_S, r_rest); equal features get exactly 0', () => {
  const rng = new Rng(11);
  for (let trial = 0; trial < 40; trial++) {
    const nCols = 2 + rng.int(9);
    const model: TreeEnsemble = { base: rng.normal(), trees: Array.from({ length: 1 + rng.int(3) }, () => randomTree(rng, nCols, 2 + rng.int(6))) };
    const r = trial % 2 ? new Float64Array(nCols) : randomRow(rng, nCols, 0.1);
    for (let k = 0; k < 5; k++) {
      const x = randomRow(rng, nCols, 0.15);
      // Some columns equal to the baseline (a zero counter against the all-zero baseline).
      const same = rng.int(nCols);
      x[same] = r[same];
      const { base, phi } = ensembleShapBaseline(model, x, 0, r, nCols);
      const want = bruteShapley(nCols, (mask) => {
        const h = Float64Array.from(r, (rv, j) => (mask & (1 << j) ? x[j] : rv));
        return ensembleAt(model, h);
      });
      for (let j = 0; j < nCols; j++) assert.ok(Math.abs(phi[j] - want[j]) < 1e-9, `trial ${trial} col ${j}: ${phi[j]} vs ${want[j]}`);
      assert.equal(phi[same], 0);
      assert.ok(Math.abs(base - ensembleAt(model, r)) < 1e-12);
      const total = base + phi.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(total - ensembleAt(model, x)) < 1e-9, 'additivity');
    }
  }
});

test('interventional TreeSHAP with grouped columns (a categorical\'s one-hot columns) equals brute-force Shapley values per group, not per column summed', () => {
  const rng = new Rng(29);
  let differs = 0;
  for (let trial = 0; trial < 40; trial++) {
    const nCols = 4 + rng.int(7);
    // columns 0..2 are one group (one feature); the rest are a group each
    const group = Int32Array.from({ length: nCols }, (_, c) => (c < 3 ? 0 : c - 2));
    const nPlayers = nCols - 2;
    const model: TreeEnsemble = { base: 0, trees: Array.from({ length: 1 + rng.int(3) }, () => randomTree(rng, nCols, 3 + rng.int(4))) };
    const r = randomRow(rng, nCols, 0.1);
    for (let k = 0; k < 5; k++) {
      const x = randomRow(rng, nCols, 0.1);
      const { phi } = ensembleShapBaseline(model, x, 0, r, nCols, group, nPlayers);
      const want = bruteShapley(nPlayers, (mask) => ensembleAt(model, Float64Array.from(r, (rv, j) => (mask & (1 << group[j]) ? x[j] : rv))));
      for (let p = 0; p < nPlayers; p++) assert.ok(Math.abs(phi[p] - want[p]) < 1e-9, `trial ${trial} player ${p}: ${phi[p]} vs ${want[p]}`);
      // per column, summed into the group, is not the group's Shapley value in general
      const cols = ensembleShapBaseline(model, x, 0, r, nCols).phi;
      if (Math.abs(cols[0] + cols[1] + cols[2] - want[0]) > 1e-6) differs++;
    }
  }
  assert.ok(differs > 20, `per-column sums differed on ${differs} of 200 rows`);
});

test('TreeSHAP on fitted GBDT and forest models (missing values, repeated features) matches brute force', () => {
  const rng = new Rng(3);
  const n = 400;
  const p = 6;
  const data = new Float64Array(n * p);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < p; c++) data[r * p + c] = rng.next() < 0.1 ? NaN : Math.round(rng.normal() * 50) / 10;
    const a = data[r * p] || 0;
    const b = data[r * p + 1] || 0;
    y[r] = a * b + (Number.isNaN(data[r * p + 2]) ? 3 : data[r * p + 2]) + 0.1 * rng.normal();
  }
  const x = { nRows: n, nCols: p, data };
  const gbdt = fitGbdt(x, y, { maxIter: 15, maxLeafNodes: 8, minSamplesLeaf: 5, seed: 1 }).model;
  const forest = fitForest(x, y, { nTrees: 5, maxDepth: 5, maxFeatures: 0.6, seed: 2 });
  for (const model of [gbdt, forest]) {
    const pred = predictTrees(model, x);
    for (let r = 0; r < 12; r++) {
      const row = data.subarray(r * p, (r + 1) * p);
      const path = ensembleShapPath(model, row, 0, p);
      const wantPath = bruteShapley(p, (mask) => ensemblePath(model, Float64Array.from(row), mask));
      const zero = new Float64Array(p);
      const inter = ensembleShapBaseline(model, row, 0, zero, p);
      const wantInter = bruteShapley(p, (mask) => ensembleAt(model, Float64Array.from(zero, (z, j) => (mask & (1 << j) ? row[j] : z))));
      for (let j = 0; j < p; j++) {
        assert.ok(Math.abs(path.phi[j] - wantPath[j]) < 1e-9);
        assert.ok(Math.abs(inter.phi[j] - wantInter[j]) < 1e-9);
      }
      for (const e of [path, inter]) assert.ok(Math.abs(e.base + e.phi.reduce((a, b) => a + b, 0) - pred[r]) < 1e-9);
    }
    // The expected value weighs leaves by training rows: for the GBDT it is the mean training prediction.
    if (model === gbdt) {
      const mean = pred.reduce((a, b) => a + b, 0) / n;
      const ev = model.base + model.trees.reduce((s, t) => s + expectedValue(t), 0);
      assert.ok(Math.abs(mean - ev) < 1e-9);
    }
  }
});

test('XGBoost JSON model: our predictions and TreeSHAP equal xgboost predict and pred_contribs (float32)', (t) => {
  const avail = oracleAvailable('xgboost');
  if (avail === 'skip') return t.skip('python3-xgboost not installed (IOLENS_SKIP_ORACLES=1)');
  assert.equal(avail, true, '/usr/bin/python3 cannot import xgboost: install python3-xgboost (see .ci/run)');
  const rng = new Rng(5);
  const n = 500;
  const p = 7;
  const data = new Float64Array(n * p);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < p; c++) data[r * p + c] = rng.next() < 0.08 ? NaN : Math.fround(rng.normal());
    const v = (c: number): number => (Number.isNaN(data[r * p + c]) ? 0 : data[r * p + c]);
    y[r] = Math.fround(v(0) * 2 + v(1) * v(2) + Math.sin(v(3)) + 0.1 * rng.normal());
  }
  const script = `
import sys, json, numpy as np, xgboost as xgb
d = sys.argv[1]
n, p = ${n}, ${p}
X = np.fromfile(d + '/x.f64', dtype='<f8').reshape(n, p).astype(np.float32)
y = np.fromfile(d + '/y.f64', dtype='<f8').astype(np.float32)
m = xgb.DMatrix(X, label=y, missing=np.nan)
bst = xgb.train({'max_depth': 5, 'eta': 0.3, 'objective': 'reg:squarederror', 'base_score': 0.25, 'seed': 0, 'nthread': 1}, m, num_boost_round=25)
bst.save_model(d + '/model.json')
bst.predict(m).astype('<f8').tofile(d + '/pred.f64')
bst.predict(m, pred_contribs=True).astype('<f8').tofile(d + '/contribs.f64')
`;
  const run = runPython(script, (dir) => {
    writeFileSync(join(dir, 'x.f64'), Buffer.from(data.buffer));
    writeFileSync(join(dir, 'y.f64'), Buffer.from(y.buffer));
  });
  try {
    const model = loadXgboostJson(JSON.parse(readFileSync(join(run.dir, 'model.json'), 'utf8')));
    assert.equal(model.nFeatures, p);
    assert.equal(model.trees.length, 25);
    const pred = readF64(join(run.dir, 'pred.f64'));
    const contribs = readF64(join(run.dir, 'contribs.f64'));
    const ours = predictTrees(model, { nRows: n, nCols: p, data });
    let maxContrib = 0;
    for (let r = 0; r < n; r++) {
      assert.ok(Math.abs(ours[r] - pred[r]) <= 1e-5 * Math.max(1, Math.abs(pred[r])), `row ${r}: ${ours[r]} vs ${pred[r]}`);
      const { base, phi } = ensembleShapPath(model, data, r * p, p);
      for (let j = 0; j < p; j++) {
        const want = contribs[r * (p + 1) + j];
        assert.ok(Math.abs(phi[j] - want) <= 1e-5 * Math.max(1, Math.abs(want)), `row ${r} col ${j}: ${phi[j]} vs ${want}`);
        maxContrib = Math.max(maxContrib, Math.abs(want));
      }
      const bias = contribs[r * (p + 1) + p];
      assert.ok(Math.abs(base - bias) <= 1e-5 * Math.max(1, Math.abs(bias)), `bias ${base} vs ${bias}`);
    }
    assert.ok(maxContrib > 0.5, 'the model uses its features');
  } finally {
    run.cleanup();
  }
});
