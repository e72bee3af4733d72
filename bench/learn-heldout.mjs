// Issue 53, items 3 and 4: accuracy, OOD handling and interval coverage on rows of something the model never saw,
// beside XGBoost (Debian's python3-xgboost, an oracle only) trained on the same rows and the same encoded features.
// TOKIO-ABC here holds one system (Cori), so one application is held out at a time: the model trains on the other
// four applications' jobs (validation: their latest 20 % by _datetime_start) and predicts every job of the held-out
// one. Run after `npx tsc -p tsconfig.json`: node bench/learn-heldout.mjs [app ...]   (default: vpicio_uni dbscan_read)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioFeatures } from '../dist/learn/testing/tokio.js';
import { train } from '../dist/learn/train.js';
import { predict } from '../dist/learn/predict.js';
import { takeRows } from '../dist/learn/table.js';
import { logMetrics, toModelSpace } from '../dist/learn/metrics.js';
import { encode } from '../dist/learn/preprocess.js';
import { python } from './learn-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'out');
mkdirSync(out, { recursive: true });
const table = readTokio(TOKIO_CORI);
const app = table.columns.darshan_app.map((p) => (p === null ? '' : p.slice(p.lastIndexOf('/') + 1)));
const apps = process.argv.slice(2).length ? process.argv.slice(2) : ['vpicio_uni', 'dbscan_read'];
const features = tokioFeatures(table);
const fmt = (m) => `${m.r2.toFixed(3)} | ${m.rmse.toFixed(3)} | ×${m.medianErrorFactor.toFixed(2)}`;
const results = [];

for (const held of apps) {
  const trainRows = app.flatMap((a, i) => (a !== held ? [i] : []));
  const testRows = app.flatMap((a, i) => (a === held ? [i] : []));
  const trainT = takeRows(table, trainRows);
  const testT = takeRows(table, testRows);
  // the families iolens train uses by default (kNN on request only)
  const model = await train(trainT, { target: TOKIO_TARGET, features, timeColumn: '_datetime_start', runtimeColumn: '_runtime', seed: 1, parallel: false, models: ['gbdt', 'forest', 'ridge', 'poly2', 'mlp'] });
  const truth = Float64Array.from(testT.columns[TOKIO_TARGET], toModelSpace);
  const shipped = predict(model, testT);
  const plain = predict(model, testT, { ood: false });
  // the ensemble with its plain weights and unclamped members (no OOD handling at all), and the rule before: the
  // best tree member alone on every OOD row
  const raw = new Float64Array(truth.length);
  plain.members.forEach((mb, i) => mb.output.forEach((v, r) => (raw[r] += model.members[i].weight * v)));
  const trees = plain.members.map((mb, i) => i).filter((i) => ['gbdt', 'forest'].includes(model.members[i].model.type));
  const bestTree = trees.reduce((a, b) => (model.members[b].validation.rmse < model.members[a].validation.rmse ? b : a));
  const before = Float64Array.from(raw, (v, r) => (shipped.ood[r] ? plain.members[bestTree].output[r] : v));
  const rows = [
    { name: 'IOLens as shipped (OOD handling on)', m: logMetrics(truth, shipped.output) },
    { name: 'ensemble, plain weights, no OOD handling', m: logMetrics(truth, raw) },
    { name: `before: best tree (${model.members[bestTree].model.type}) alone on OOD rows`, m: logMetrics(truth, before) },
  ];
  for (const mb of plain.members) rows.push({ name: `member ${mb.type}`, m: logMetrics(truth, mb.output) });
  const medTrain = Float64Array.from(model.reference.y).sort()[model.reference.y.length >> 1];
  rows.push({ name: 'baseline: training median', m: logMetrics(truth, new Float64Array(truth.length).fill(medTrain)) });
  // XGBoost on the same rows and encoded features; early stopping on the same validation rows (latest 20 % by time)
  const xTr = encode(model.preprocessor, trainT).matrix;
  const xTe = encode(model.preprocessor, testT).matrix;
  const yTr = Float64Array.from(trainT.columns[TOKIO_TARGET], toModelSpace);
  const start = trainT.columns._datetime_start;
  const cut = Float64Array.from(start).sort()[Math.floor(0.8 * start.length)];
  const isValid = Float64Array.from(start, (s) => (s >= cut ? 1 : 0));
  writeFileSync(join(out, 'ho-xtr.f64'), Buffer.from(xTr.data.buffer));
  writeFileSync(join(out, 'ho-ytr.f64'), Buffer.from(yTr.buffer));
  writeFileSync(join(out, 'ho-vtr.f64'), Buffer.from(isValid.buffer));
  writeFileSync(join(out, 'ho-xte.f64'), Buffer.from(xTe.data.buffer));
  const script = `
import sys, json, numpy as np, xgboost as xgb
p = ${xTr.nCols}
d = sys.argv[1]
X = np.fromfile(d + '/ho-xtr.f64').reshape(-1, p); y = np.fromfile(d + '/ho-ytr.f64'); v = np.fromfile(d + '/ho-vtr.f64') > 0
Xt = np.fromfile(d + '/ho-xte.f64').reshape(-1, p)
m = xgb.XGBRegressor(n_estimators=2000, learning_rate=0.05, max_depth=6, subsample=0.8, colsample_bytree=0.8, random_state=0, n_jobs=1, early_stopping_rounds=50)
m.fit(X[~v], y[~v], eval_set=[(X[v], y[v])], verbose=False)
best = m.best_iteration + 1
m2 = xgb.XGBRegressor(n_estimators=best, learning_rate=0.05, max_depth=6, subsample=0.8, colsample_bytree=0.8, random_state=0, n_jobs=1).fit(X, y)
print(json.dumps({'pred': m2.predict(Xt).astype(float).tolist(), 'trees': best}))
`;
  const xg = JSON.parse(python(script, [out], { OMP_NUM_THREADS: '1' }));
  rows.push({ name: `XGBoost (same rows and features, ${xg.trees} trees by early stopping)`, m: logMetrics(truth, Float64Array.from(xg.pred)) });
  const inside = (p, r) => {
    const y = testT.columns[TOKIO_TARGET][r];
    return y >= p.low[r] && y <= p.high[r];
  };
  const oodRows = shipped.ood.flatMap((o, r) => (o ? [r] : []));
  const coverage = {
    all: testT.nRows ? shipped.low.reduce((s, _, r) => s + (inside(shipped, r) ? 1 : 0), 0) / testT.nRows : NaN,
    ood: oodRows.length ? oodRows.filter((r) => inside(shipped, r)).length / oodRows.length : NaN,
    stated: model.ensemble.interval.coverage,
  };
  console.log(`\nheld out: ${held} (${testT.nRows} jobs; trained on ${trainT.nRows} of the other applications); OOD flagged ${oodRows.length} (${((100 * oodRows.length) / testT.nRows).toFixed(1)} %)`);
  console.log('| predictor | R²(log) | RMSE(log10) | median factor |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${fmt(r.m)} |`);
  console.log(`interval coverage (stated ${(100 * coverage.stated).toFixed(0)} %): all rows ${(100 * coverage.all).toFixed(1)} %, OOD rows ${(100 * coverage.ood).toFixed(1)} %`);
  results.push({ held, n: testT.nRows, ood: oodRows.length, rows: rows.map((r) => ({ name: r.name, r2: r.m.r2, rmse: r.m.rmse, factor: r.m.medianErrorFactor })), coverage });
}
writeFileSync(join(out, 'learn-heldout.json'), JSON.stringify(results, null, 1));
