// Accuracy and speed of the learning engine on TOKIO-ABC (issue 14), next to scikit-learn on the same split.
// Rows keyed by _row; the earliest 80 % by _datetime_start train (validation = the latest 20 % of those), the latest
// 20 % test. Run after `npx tsc -p tsconfig.json`: node bench/learn-tokio.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg, cpus } from 'node:os';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioFeatures, tokioSplit } from '../dist/learn/testing/tokio.js';
import { train } from '../dist/learn/train.js';
import { predict, explain } from '../dist/learn/predict.js';
import { takeRows } from '../dist/learn/table.js';
import { logMetrics, toModelSpace } from '../dist/learn/metrics.js';
import { serializeModel } from '../dist/learn/model-file.js';
import { encode } from '../dist/learn/preprocess.js';
import { explainModel } from '../dist/learn/models.js';
import { cpuSeconds, python, sklearnAvailable } from './learn-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'out');
mkdirSync(out, { recursive: true });
const load0 = loadavg()[0];
const table = readTokio(TOKIO_CORI);
const split = tokioSplit(table);
const trainT = takeRows(table, split.train);
const testT = takeRows(table, split.test);
const features = tokioFeatures(table);
const opts = { target: TOKIO_TARGET, features, timeColumn: '_datetime_start', runtimeColumn: '_runtime', seed: 1 };

const c0 = cpuSeconds();
const t0 = performance.now();
const model = await train(trainT, { ...opts, onProgress: (l) => console.error(l) });
const trainWall = (performance.now() - t0) / 1000;
const trainCpu = cpuSeconds() - c0;

const truth = Float64Array.from(testT.columns[TOKIO_TARGET], toModelSpace);
const p = predict(model, testT);
const closest = predict(model, testT, { ensemble: 'closest', ood: false });
const rows = [];
for (const m of p.members) {
  const mb = model.members.find((x) => x.model.type === m.type);
  rows.push({ name: m.type, weight: mb.weight, validation: mb.validation, test: logMetrics(truth, m.output) });
}
rows.push({ name: 'ensemble (average)', weight: null, validation: model.ensemble.validation, test: logMetrics(truth, p.output) });
rows.push({ name: 'ensemble (closest to average)', weight: null, validation: null, test: logMetrics(truth, closest.output) });
const bestRow = rows.find((r) => r.name === model.best);
const medTrain = Float64Array.from(model.reference.y).sort()[model.reference.y.length >> 1];
rows.push({ name: 'baseline: training median', weight: null, validation: model.card.baseline, test: logMetrics(truth, new Float64Array(truth.length).fill(medTrain)) });

// scikit-learn on the same split and the same encoded features (preprocessing fitted on the training rows).
let sk = null;
if (sklearnAvailable()) {
  const xTr = encode(model.preprocessor, trainT).matrix;
  const xTe = encode(model.preprocessor, testT).matrix;
  const yTr = Float64Array.from(trainT.columns[TOKIO_TARGET], toModelSpace);
  writeFileSync(join(out, 'tokio-xtr.f64'), Buffer.from(xTr.data.buffer));
  writeFileSync(join(out, 'tokio-ytr.f64'), Buffer.from(yTr.buffer));
  writeFileSync(join(out, 'tokio-xte.f64'), Buffer.from(xTe.data.buffer));
  writeFileSync(join(out, 'tokio-yte.f64'), Buffer.from(truth.buffer));
  const script = `
import sys, json, time, resource, numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
p = ${xTr.nCols}
d = sys.argv[1]
X = np.fromfile(d + '/tokio-xtr.f64').reshape(-1, p); y = np.fromfile(d + '/tokio-ytr.f64')
Xt = np.fromfile(d + '/tokio-xte.f64').reshape(-1, p); yt = np.fromfile(d + '/tokio-yte.f64')
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
c = cpu(); m = HistGradientBoostingRegressor(random_state=0).fit(X, y); fit = cpu() - c
pr = m.predict(Xt)
e = pr - yt
print(json.dumps({'pred': pr.tolist(), 'fitCpu': fit, 'iters': int(m.n_iter_)}))
`;
  // One OpenMP thread: on a shared machine idle OpenMP workers spin and inflate the CPU time.
  const r = JSON.parse(python(script, [out], { OMP_NUM_THREADS: '1' }));
  sk = { test: logMetrics(truth, Float64Array.from(r.pred)), fitCpu: r.fitCpu, iters: r.iters };
  rows.push({ name: 'scikit-learn HistGradientBoostingRegressor (defaults)', weight: null, validation: null, test: sk.test });
}

// Explain: the GBDT member alone per row (both baselines), normalised to 200 trees; and the whole ensemble.
const gb = model.members.find((m) => m.model.type === 'gbdt');
const enc = encode(model.preprocessor, testT);
const group = Int32Array.from(model.preprocessor.columnFeature);
const nF = model.preprocessor.features.length;
const zero = { kind: 'row', row: new Float64Array(enc.matrix.nCols) };
const path = { kind: 'path', row: Float64Array.from(model.preprocessor.stats, (s) => s.mean) };
const nEx = 200;
const timeIt = (fn) => {
  const s = performance.now();
  for (let r = 0; r < nEx; r++) fn(r);
  return (performance.now() - s) / nEx;
};
const gbTrees = gb.model.trees.trees.length;
const exZero = timeIt((r) => explainModel(gb.model, enc.matrix, r, zero, group, nF));
const exPath = timeIt((r) => explainModel(gb.model, enc.matrix, r, path, group, nF));
const fr = model.members.find((m) => m.model.type === 'forest');
const exForest = timeIt((r) => explainModel(fr.model, enc.matrix, r, zero, group, nF));
const s1 = performance.now();
explain(model, testT, { rows: Array.from({ length: 5 }, (_, i) => i) });
const exEnsemble = (performance.now() - s1) / 5;
const s2 = performance.now();
predict(model, testT, { ood: false });
const predictMs = performance.now() - s2;

// Timing on the whole table (8,080 rows), every model.
const c3 = cpuSeconds();
const t3 = performance.now();
await train(table, opts);
const fullWall = (performance.now() - t3) / 1000;
const fullCpu = cpuSeconds() - c3;
const load1 = loadavg()[0];

const fmt = (m) => (m ? `${m.r2.toFixed(3)} | ${m.rmse.toFixed(3)} | ×${m.medianErrorFactor.toFixed(3)}` : '– | – | –');
console.log(`TOKIO-ABC Cori, ${table.nRows} rows: train ${split.train.length} (fit ${model.card.fitRows} + validation ${model.card.validationRows}, by time), test ${split.test.length} (latest 20 %)`);
console.log(`features: ${features.length} columns → ${model.preprocessor.columns.length} model columns; leak guard dropped: ${model.leakGuard.dropped.map((d) => d.feature).join(', ') || 'none'}`);
console.log(`machine: ${cpus().length} × ${cpus()[0].model}; load average ${load0.toFixed(2)} at start, ${load1.toFixed(2)} at end\n`);
console.log('| model | weight | validation R²(log) | RMSE | median factor | test R²(log) | RMSE(log10) | median factor |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name}${r.name === model.best ? ' (best on validation)' : ''} | ${r.weight === null ? '' : r.weight.toFixed(3)} | ${fmt(r.validation)} | ${fmt(r.test)} |`);
console.log(`\nOOD on the test rows (later jobs of the training system): ${(100 * p.ood.filter(Boolean).length / p.ood.length).toFixed(1)} %`);
console.log(`train (6,464 rows, every model): ${trainWall.toFixed(1)} s wall, ${trainCpu.toFixed(1)} s CPU (all threads)`);
console.log(`train (all ${table.nRows} rows, every model): ${fullWall.toFixed(1)} s wall, ${fullCpu.toFixed(1)} s CPU (all threads)`);
if (sk) console.log(`scikit-learn HistGradientBoosting fit (defaults, one thread): ${sk.fitCpu.toFixed(2)} s CPU, ${sk.iters} iterations`);
console.log(`explain GBDT (${gbTrees} trees) per row: interventional ${exZero.toFixed(2)} ms (${((exZero * 200) / gbTrees).toFixed(2)} ms per 200 trees), path-dependent ${exPath.toFixed(2)} ms (${((exPath * 200) / gbTrees).toFixed(2)} ms per 200 trees)`);
console.log(`explain forest (${fr.model.trees.trees.length} trees, depth ≤ ${fr.model.params.maxDepth}) per row: ${exForest.toFixed(2)} ms`);
console.log(`explain the whole ensemble (KernelSHAP for kNN and the MLP) per row: ${exEnsemble.toFixed(0)} ms`);
console.log(`predict ${testT.nRows} rows, every model, no OOD: ${predictMs.toFixed(0)} ms; model file ${(serializeModel(model).length / 2 ** 20).toFixed(1)} MiB; MLP backend ${model.card.mlpBackend}`);
writeFileSync(join(out, 'learn-tokio.json'), JSON.stringify({ rows, trainWall, trainCpu, fullWall, fullCpu, exZero, exPath, exForest, exEnsemble, gbTrees, load0, load1 }, null, 1));
