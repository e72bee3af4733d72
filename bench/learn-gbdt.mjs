// GBDT speed against scikit-learn's HistGradientBoostingRegressor (issue 14): the same 100k × 50 table, 200 trees,
// max_leaf_nodes 31, early stopping off, both timed in CPU seconds (user + system, all threads) around fit, and
// predict timed on the same rows. Run after `npx tsc -p tsconfig.json`: node bench/learn-gbdt.mjs [rows] [cols]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { fitGbdt } from '../dist/learn/gbdt.js';
import { predictTrees } from '../dist/learn/ensemble-trees.js';
import { ensembleShapBaseline, ensembleShapPath, pathBuffersFor } from '../dist/learn/treeshap.js';
import { Rng } from '../dist/learn/rng.js';
import { cpuSeconds, median, python, sklearnAvailable } from './learn-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.argv[2] ?? 100_000);
const p = Number(process.argv[3] ?? 50);
const runs = Number(process.argv[4] ?? 3);
const rng = new Rng(42);
const X = new Float64Array(n * p);
for (let i = 0; i < X.length; i++) X[i] = rng.normal();
const y = new Float64Array(n);
for (let r = 0; r < n; r++) {
  const o = r * p;
  y[r] = 2 * X[o] + Math.sin(3 * X[o + 1]) + X[o + 2] * X[o + 3] + 0.3 * rng.normal();
}
const out = join(here, 'out');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'gbdt-x.f64'), Buffer.from(X.buffer));
writeFileSync(join(out, 'gbdt-y.f64'), Buffer.from(y.buffer));

const params = { maxIter: 200, maxLeafNodes: 31, learningRate: 0.1, minSamplesLeaf: 20, l2: 0, seed: 0 };
const m = { nRows: n, nCols: p, data: X };
const fits = [];
const preds = [];
let model;
for (let i = 0; i < runs; i++) {
  const c0 = cpuSeconds();
  const t0 = performance.now();
  model = fitGbdt(m, y, params).model;
  fits.push({ cpu: cpuSeconds() - c0, wall: (performance.now() - t0) / 1000 });
  const c1 = cpuSeconds();
  const t1 = performance.now();
  predictTrees(model, m);
  preds.push({ cpu: cpuSeconds() - c1, wall: (performance.now() - t1) / 1000 });
}
const ours = {
  fitCpu: median(fits.map((f) => f.cpu)),
  fitWall: median(fits.map((f) => f.wall)),
  predictCpu: median(preds.map((f) => f.cpu)),
  predictWall: median(preds.map((f) => f.wall)),
};
const pr = predictTrees(model, m);
let sse = 0;
let sst = 0;
let mean = 0;
for (let i = 0; i < n; i++) mean += y[i] / n;
for (let i = 0; i < n; i++) {
  sse += (pr[i] - y[i]) ** 2;
  sst += (y[i] - mean) ** 2;
}
ours.trainR2 = 1 - sse / sst;

// Explaining one row of the 200-tree model: CPU per row over 1,000 rows.
const buf = pathBuffersFor(model);
const zeroRow = new Float64Array(p);
const explainCpu = (fn) => {
  for (let r = 0; r < 100; r++) fn(r);
  const c = cpuSeconds();
  for (let r = 0; r < 1000; r++) fn(r);
  return ((cpuSeconds() - c) / 1000) * 1000;
};
const exPath = explainCpu((r) => ensembleShapPath(model, X, r * p, p, buf));
const exZero = explainCpu((r) => ensembleShapBaseline(model, X, r * p, zeroRow, p));

let sk = null;
let sk1 = null;
if (sklearnAvailable()) {
  const script = `
import numpy as np, resource, time, json, sys
from sklearn.ensemble import HistGradientBoostingRegressor
n, p, runs = ${n}, ${p}, ${runs}
X = np.fromfile(sys.argv[1], dtype='<f8').reshape(n, p); y = np.fromfile(sys.argv[2], dtype='<f8')
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
fits, preds = [], []
for _ in range(runs):
    m = HistGradientBoostingRegressor(max_iter=200, max_leaf_nodes=31, learning_rate=0.1, min_samples_leaf=20, l2_regularization=0.0, early_stopping=False, random_state=0)
    c, t = cpu(), time.time(); m.fit(X, y); fits.append((cpu() - c, time.time() - t))
    c, t = cpu(), time.time(); pr = m.predict(X); preds.append((cpu() - c, time.time() - t))
med = lambda v: float(np.median(v))
print(json.dumps({'fitCpu': med([f[0] for f in fits]), 'fitWall': med([f[1] for f in fits]), 'predictCpu': med([f[0] for f in preds]), 'predictWall': med([f[1] for f in preds]), 'trainR2': float(1 - ((pr - y) ** 2).sum() / ((y - y.mean()) ** 2).sum())}))
`;
  sk = JSON.parse(python(script, [join(out, 'gbdt-x.f64'), join(out, 'gbdt-y.f64')]));
  // The same with one OpenMP thread: on a busy shared machine idle OpenMP workers spin and inflate CPU time.
  sk1 = JSON.parse(python(script, [join(out, 'gbdt-x.f64'), join(out, 'gbdt-y.f64')], { OMP_NUM_THREADS: '1' }));
}
const f = (v) => v.toFixed(2);
console.log(`GBDT ${n} rows × ${p} columns, 200 trees, 31 leaves, median of ${runs} runs (CPU s = user + system, all threads); load average ${loadavg()[0].toFixed(2)} at the end`);
console.log('| | fit CPU s | fit wall s | predict CPU s | predict wall s | train R² |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(`| IOLens | ${f(ours.fitCpu)} | ${f(ours.fitWall)} | ${f(ours.predictCpu)} | ${f(ours.predictWall)} | ${ours.trainR2.toFixed(4)} |`);
if (sk) {
  console.log(`| scikit-learn (OpenMP, 2 threads) | ${f(sk.fitCpu)} | ${f(sk.fitWall)} | ${f(sk.predictCpu)} | ${f(sk.predictWall)} | ${sk.trainR2.toFixed(4)} |`);
  console.log(`| scikit-learn (OMP_NUM_THREADS=1) | ${f(sk1.fitCpu)} | ${f(sk1.fitWall)} | ${f(sk1.predictCpu)} | ${f(sk1.predictWall)} | ${sk1.trainR2.toFixed(4)} |`);
  console.log(`\nfit CPU ratio IOLens / scikit-learn: ${(ours.fitCpu / sk.fitCpu).toFixed(2)}× (2 threads), ${(ours.fitCpu / sk1.fitCpu).toFixed(2)}× (1 thread)`);
} else console.log('\n(scikit-learn not importable by /usr/bin/python3: no reference run)');
console.log(`explain one row, 200 trees: path-dependent TreeSHAP ${exPath.toFixed(2)} ms CPU, interventional (zero baseline) ${exZero.toFixed(2)} ms CPU`);
