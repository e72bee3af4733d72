// `iolens train | predict | explain` as a user runs them (whole processes), on TOKIO-ABC (issue 14), next to
// scikit-learn and XGBoost (Debian's, /usr/bin/python3) in the same run. Run after `npm run build`:
//   node bench/learn-cli.mjs
// Writes its inputs under bench/out/learn-cli/ and prints Markdown tables for BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioSplit } from '../dist/learn/testing/tokio.js';
import { encode, fitPreprocessor } from '../dist/learn/preprocess.js';
import { takeRows, toModelSpace, logMetrics } from '../dist/learn/index.js';
import { fitGbdt } from '../dist/learn/gbdt.js';
import { predictModel } from '../dist/learn/models.js';
import { explainRows, loadBundle, modelTable, readRows, serializeBundle } from '../dist/models/index.js';
import { predict } from '../dist/learn/index.js';
import { cpuSeconds, median, python, sklearnAvailable } from './learn-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = join(here, 'out', 'learn-cli');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const BIN = join(root, 'bin', 'iolens.js');
const db = join(out, 'tokio.duckdb');
const features = join(root, 'samples', 'tokio-abc.features');
const loads = [loadavg()[0]];

/** One CLI run: wall seconds, CPU seconds of the process (all threads, from its own resourceUsage), peak RSS. */
function run(args, { quiet = true } = {}) {
  const stats = join(out, 'stats.json');
  rmSync(stats, { force: true });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, IOLENS_STATS_FILE: stats } });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`iolens ${args.join(' ')}: ${r.stderr}`);
  const u = JSON.parse(readFileSync(stats, 'utf8'));
  loads.push(loadavg()[0]);
  if (!quiet) process.stderr.write(r.stderr);
  return { wall, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS / 1024, stdout: r.stdout };
}

run(['import-features', TOKIO_CORI, '--db', db, '--table', 'tokio', '--key', '_row', '-q']);
const tokio = readTokio(TOKIO_CORI);
const split = tokioSplit(tokio);
const start = tokio.columns._datetime_start;
const cutoff = Math.max(...Array.from(split.train, (r) => start[r]));
const base = ['--db', db, '--table', 'tokio', '--target', TOKIO_TARGET, '--features', features, '--time', '_datetime_start', '--seed', '1'];

// 1. Train: every family, then the default list (no kNN), on all 8,080 rows; and on the earliest 80 % for accuracy.
const trainAll = run(['train', ...base, '--models', 'gbdt,forest,ridge,poly2,knn,mlp', '--out', join(out, 'all6.json'), '-q']);
const trainDefault = run(['train', ...base, '--out', join(out, 'default.json'), '-q']);
const trainSplit = run(['train', ...base, '--models', 'gbdt,forest,ridge,poly2,knn,mlp', '--where', `_datetime_start <= ${cutoff}`, '--out', join(out, 'split.json'), '-q']);

// Accuracy of the split model on the latest 20 %, per member and merged (library calls on the same rows).
const bundle = loadBundle(join(out, 'split.json'));
const rows = await readRows(bundle, { kind: 'store', db, table: 'tokio', where: `_datetime_start > ${cutoff}` });
const mt = modelTable(bundle, rows.loaded);
const truth = Float64Array.from(rows.loaded.table.columns[TOKIO_TARGET], toModelSpace);
const p = predict(bundle.model, mt);
const accuracy = [];
for (const m of p.members) accuracy.push({ name: m.type, weight: bundle.model.members.find((x) => x.model.type === m.type).weight, test: logMetrics(truth, m.output) });
const noKnnW = bundle.model.members.filter((m) => m.model.type !== 'knn');
const wsum = noKnnW.reduce((s, m) => s + m.weight, 0);
const noKnn = new Float64Array(truth.length);
for (const m of p.members) if (m.type !== 'knn') { const w = bundle.model.members.find((x) => x.model.type === m.type).weight / wsum; m.output.forEach((v, i) => (noKnn[i] += w * v)); }
accuracy.push({ name: 'ensemble (average)', weight: null, test: logMetrics(truth, p.output) });
accuracy.push({ name: 'ensemble without kNN (the default list)', weight: null, test: logMetrics(truth, noKnn) });
const oodRate = p.ood.filter(Boolean).length / p.ood.length;

// 2. scikit-learn on the same encoded features (preprocessing fitted on all 8,080 rows), one OpenMP thread.
let sk = null;
if (sklearnAvailable()) {
  const specs = bundle.model.preprocessor.features.map((f) => (f.kind === 'numeric' ? { name: f.name, kind: 'numeric', transform: f.transform } : { name: f.name, kind: 'categorical' }));
  const pre = fitPreprocessor(tokio, specs);
  const X = encode(pre, tokio).matrix;
  const y = Float64Array.from(tokio.columns[TOKIO_TARGET], toModelSpace);
  writeFileSync(join(out, 'x.f64'), Buffer.from(X.data.buffer));
  writeFileSync(join(out, 'y.f64'), Buffer.from(y.buffer));
  const script = `
import sys, json, resource, numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.neural_network import MLPRegressor
from sklearn.preprocessing import StandardScaler, PolynomialFeatures
from sklearn.pipeline import make_pipeline
d = sys.argv[1]; p = ${X.nCols}
X = np.fromfile(d + '/x.f64').reshape(-1, p); y = np.fromfile(d + '/y.f64')
X = np.nan_to_num(X)
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
out = {}
for name, m in [('gbdt', HistGradientBoostingRegressor(random_state=0)),
                ('forest', RandomForestRegressor(n_estimators=100, max_depth=10, min_samples_leaf=2, max_features=0.33, random_state=0, n_jobs=1)),
                ('ridge', make_pipeline(StandardScaler(), Ridge(alpha=10))),
                ('knn', make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=10))),
                ('mlp', make_pipeline(StandardScaler(), MLPRegressor(hidden_layer_sizes=(64, 32), max_iter=100, early_stopping=True, random_state=0)))]:
    c = cpu(); m.fit(X, y); out[name] = {'fit': cpu() - c}
    big = np.tile(X, (13, 1))[:100000]
    c = cpu(); m.predict(big); out[name]['predict100k'] = cpu() - c
print(json.dumps(out))
`;
  sk = JSON.parse(python(script, [out], { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', PYTHONWARNINGS: 'ignore' }));
}

// 3. Predict 100,000 rows (TOKIO rows repeated with new keys) with the default model: with and without OOD.
{
  const i = await DuckDBInstance.create(db);
  const c = await i.connect();
  await c.run('CREATE OR REPLACE TABLE big AS SELECT f.* REPLACE (f._row + 100000 * r.range AS _row) FROM features_tokio f, range(13) r ORDER BY r.range, f._row LIMIT 100000');
  c.closeSync();
  i.closeSync();
}
const predNoOod = run(['predict', '--model', join(out, 'default.json'), '--db', db, '--table', 'big', '--no-ood', '--csv']);
const predOod = run(['predict', '--model', join(out, 'default.json'), '--db', db, '--table', 'big', '--csv']);
const predKnn = run(['predict', '--model', join(out, 'all6.json'), '--db', db, '--table', 'big', '--no-ood', '--csv']);
run(['train', ...base, '--models', 'gbdt', '--out', join(out, 'gbdt.json'), '-q']);
const predGbdt = run(['predict', '--model', join(out, 'gbdt.json'), '--db', db, '--table', 'big', '--no-ood', '--csv']);
// In-process parts of the no-OOD run.
const dflt = loadBundle(join(out, 'default.json'));
let c0 = cpuSeconds();
const bigRows = await readRows(dflt, { kind: 'store', db, table: 'big' });
const readCpu = cpuSeconds() - c0;
c0 = cpuSeconds();
const bigTable = modelTable(dflt, bigRows.loaded);
const bp = predict(dflt.model, bigTable, { ood: false });
const predictCpu = cpuSeconds() - c0;
c0 = cpuSeconds();
const enc = encode(dflt.model.preprocessor, bigTable);
const encodeCpu = cpuSeconds() - c0;
const memberCpu = {};
for (const m of dflt.model.members) {
  c0 = cpuSeconds();
  predictModel(m.model, enc.matrix);
  memberCpu[`${m.model.type}${m.model.trees ? ` (${m.model.trees.trees.length} trees)` : ''}`] = cpuSeconds() - c0;
}
c0 = cpuSeconds();
predict(dflt.model, { nRows: 10000, columns: Object.fromEntries(Object.entries(bigTable.columns).map(([k, v]) => [k, v.slice(0, 10000)])) });
const ood10kCpu = cpuSeconds() - c0 - (predictCpu * 10000) / 100000;

// 4. Explain: a GBDT of exactly 200 trees (no early stopping) on the training rows, as a model file; per job in
// process (all 1,616 test rows), and one job as a whole process. XGBoost's pred_contribs (TreeSHAP) alongside.
const gbOnly = loadBundle(join(out, 'split.json'));
const gbMember = gbOnly.model.members.find((m) => m.model.type === 'gbdt');
const trainRows = takeRows(tokio, split.train);
const xTrain = encode(gbOnly.model.preprocessor, trainRows).matrix;
const yTrain = Float64Array.from(trainRows.columns[TOKIO_TARGET], toModelSpace);
const fit200 = fitGbdt(xTrain, yTrain, { ...gbMember.model.params, maxIter: 200, seed: 1 });
const m200 = { ...gbOnly, model: { ...gbOnly.model, members: [{ ...gbMember, weight: 1, model: { ...gbMember.model, params: { ...gbMember.model.params, maxIter: 200 }, trees: fit200.model } }], best: 'gbdt' } };
writeFileSync(join(out, 'gbdt200.json'), serializeBundle(m200));
const m200b = loadBundle(join(out, 'gbdt200.json'));
const exRows = Array.from({ length: rows.loaded.table.nRows }, (_, i) => i);
const exTimes = {};
for (const baseline of ['zero', 'path']) {
  c0 = cpuSeconds();
  explainRows(m200b, rows, { rows: exRows, baseline });
  exTimes[baseline] = ((cpuSeconds() - c0) * 1000) / exRows.length;
}
const dfltRows = await readRows(dflt, { kind: 'store', db, table: 'tokio', where: `_datetime_start > ${cutoff}` });
c0 = cpuSeconds();
explainRows(dflt, dfltRows, { rows: exRows.slice(0, 20) });
const exDefault = ((cpuSeconds() - c0) * 1000) / 20;
const firstTest = rows.keys[0];
const exCli = [0, 1, 2].map(() => run(['explain', '--model', join(out, 'gbdt200.json'), '--db', db, '--table', 'tokio', '--id', firstTest, '--json']));
const exCliDefault = run(['explain', '--model', join(out, 'default.json'), '--db', db, '--table', 'tokio', '--id', firstTest, '--json']);
let xgb = null;
{
  const xTest = encode(gbOnly.model.preprocessor, rows.loaded.table).matrix;
  writeFileSync(join(out, 'xtr.f64'), Buffer.from(xTrain.data.buffer));
  writeFileSync(join(out, 'ytr.f64'), Buffer.from(yTrain.buffer));
  writeFileSync(join(out, 'xte.f64'), Buffer.from(xTest.data.buffer));
  const script = `
import sys, json, resource, numpy as np, xgboost as xgb
d = sys.argv[1]; p = ${xTrain.nCols}
X = np.fromfile(d + '/xtr.f64').reshape(-1, p); y = np.fromfile(d + '/ytr.f64'); Xt = np.fromfile(d + '/xte.f64').reshape(-1, p)
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
b = xgb.train({'tree_method': 'hist', 'max_leaves': ${gbMember.model.params.maxLeafNodes}, 'grow_policy': 'lossguide', 'max_depth': 0, 'eta': 0.1, 'nthread': 1}, xgb.DMatrix(X, label=y), 200)
dt = xgb.DMatrix(Xt)
c = cpu(); b.predict(dt, pred_contribs=True); t = cpu() - c
print(json.dumps({'perRowMs': 1000 * t / Xt.shape[0]}))
`;
  try {
    xgb = JSON.parse(python(script, [out], { OMP_NUM_THREADS: '1' }));
  } catch (e) {
    xgb = { error: String(e.message).split('\n')[0] };
  }
}

// 5. Another system: trained on Lustre scratch jobs (earliest 80 %), scored on the DataWarp burst-buffer jobs and on
// later Lustre jobs; with the issue's features, and with its numeric features only (no file-system names).
const numericFeatures = join(out, 'numeric.features');
writeFileSync(numericFeatures, readFileSync(features, 'utf8').split('\n').filter((l) => !/^(darshan_app|darshan_biggest_(read|write)_(api|fs)|_file_system)$/.test(l)).join('\n'));
const systems = [];
for (const [label, file] of [['issue features', features], ['numeric features only', numericFeatures]]) {
  const model = join(out, `lustre-${systems.length}.json`);
  run(['train', ...base.filter((_, i) => i < 6), '--features', file, '--time', '_datetime_start', '--seed', '1', '--models', 'gbdt', '--where', `_datetime_start <= ${cutoff} AND _file_system = 'cscratch'`, '--out', model, '-q']);
  const m = loadBundle(model);
  const score = async (where) => {
    const r = await readRows(m, { kind: 'store', db, table: 'tokio', where });
    const pr = predict(m.model, modelTable(m, r.loaded));
    const yt = Float64Array.from(r.loaded.table.columns[TOKIO_TARGET], toModelSpace);
    return { rows: yt.length, ood: pr.ood.filter(Boolean).length / yt.length, metrics: logMetrics(yt, pr.output) };
  };
  systems.push({ label, bb: await score('_file_system IS NULL'), later: await score(`_datetime_start > ${cutoff} AND _file_system = 'cscratch'`) });
}

// Report.
const f3 = (v) => (v === undefined || v === null ? '–' : v.toFixed(3));
const s1 = (v) => (v === undefined || v === null ? '–' : v.toFixed(1));
console.log(`machine: ${cpus().length} × ${cpus()[0].model}, Node ${process.version}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the run\n`);
console.log('### train (whole process: read the table, leak guard, selection on validation, refit, write the file)\n');
console.log('| run | rows | wall s | CPU s (all threads) | peak RSS MiB | model file MiB |');
console.log('|---|---:|---:|---:|---:|---:|');
const size = (f) => (statSync(join(out, f)).size / 2 ** 20).toFixed(1);
console.log(`| every family (gbdt, forest, ridge, poly2, knn, mlp) | 8,080 | ${s1(trainAll.wall)} | ${s1(trainAll.cpu)} | ${trainAll.rss.toFixed(0)} | ${size('all6.json')} |`);
console.log(`| the default list (no knn) | 8,080 | ${s1(trainDefault.wall)} | ${s1(trainDefault.cpu)} | ${trainDefault.rss.toFixed(0)} | ${size('default.json')} |`);
console.log(`| every family, earliest 80 % | 6,464 | ${s1(trainSplit.wall)} | ${s1(trainSplit.cpu)} | ${trainSplit.rss.toFixed(0)} | ${size('split.json')} |`);
if (sk) {
  console.log('\nscikit-learn 1.2 on the same encoded features (8,080 rows, one thread, fit CPU s; its defaults, no grid search):', Object.entries(sk).map(([k, v]) => `${k} ${v.fit.toFixed(2)}`).join(', '));
}
console.log('\n### accuracy on the latest 20 % (1,616 jobs), model trained by the CLI on the earliest 80 %\n');
console.log('| model | weight | R²(log) | RMSE(log10) | median factor |');
console.log('|---|---:|---:|---:|---:|');
for (const a of accuracy) console.log(`| ${a.name} | ${a.weight === null ? '' : a.weight.toFixed(3)} | ${f3(a.test.r2)} | ${f3(a.test.rmse)} | ×${f3(a.test.medianErrorFactor)} |`);
console.log(`\nOOD on those later jobs: ${(100 * oodRate).toFixed(1)} %`);
console.log('\n### predict 100,000 rows\n');
console.log('| run | wall s | CPU s | peak RSS MiB |');
console.log('|---|---:|---:|---:|');
console.log(`| iolens predict, default model (${dflt.model.members.map((m) => m.model.type).join('+')}), --no-ood | ${s1(predNoOod.wall)} | ${s1(predNoOod.cpu)} | ${predNoOod.rss.toFixed(0)} |`);
console.log(`| the same with OOD checks | ${s1(predOod.wall)} | ${s1(predOod.cpu)} | ${predOod.rss.toFixed(0)} |`);
console.log(`| every family (with knn), --no-ood | ${s1(predKnn.wall)} | ${s1(predKnn.cpu)} | ${predKnn.rss.toFixed(0)} |`);
console.log(`| a GBDT-only model, --no-ood | ${s1(predGbdt.wall)} | ${s1(predGbdt.cpu)} | ${predGbdt.rss.toFixed(0)} |`);
console.log(`\nin process, CPU s: read 100k rows × ${Object.keys(bigRows.loaded.table.columns).length} columns from DuckDB ${readCpu.toFixed(2)}; engine predict of the default model (no OOD) ${predictCpu.toFixed(2)}, of which encoding ${encodeCpu.toFixed(2)} and per member ${Object.entries(memberCpu).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}; OOD checks ${(ood10kCpu * 10).toFixed(1)} per 100k rows`);
if (sk) console.log(`scikit-learn predict 100k rows, CPU s: ${Object.entries(sk).map(([k, v]) => `${k} ${v.predict100k.toFixed(2)}`).join(', ')}`);
console.log('\n### explain\n');
console.log(`GBDT of 200 trees, per job (1,616 jobs, in process, encode + TreeSHAP + merge): zero baseline ${exTimes.zero.toFixed(2)} ms, path-dependent ${exTimes.path.toFixed(2)} ms`);
console.log(`XGBoost 1.7 pred_contribs, 200 trees, one thread, per job: ${xgb && xgb.perRowMs !== undefined ? `${xgb.perRowMs.toFixed(2)} ms` : JSON.stringify(xgb)}`);
console.log(`iolens explain --id (one job, whole process, 200 trees): ${median(exCli.map((x) => x.wall)).toFixed(2)} s wall, ${median(exCli.map((x) => x.cpu)).toFixed(2)} s CPU`);
console.log(`default model (${dflt.model.members.map((m) => m.model.type).join('+')}) per job in process: ${exDefault.toFixed(0)} ms (the MLP's KernelSHAP); whole process: ${exCliDefault.wall.toFixed(2)} s wall, ${exCliDefault.cpu.toFixed(2)} s CPU`);
writeFileSync(join(out, 'results.json'), JSON.stringify({ trainAll, trainDefault, trainSplit, accuracy, oodRate, sk, predNoOod, predOod, predKnn, predGbdt, systems, readCpu, predictCpu, encodeCpu, memberCpu, ood10kCpu, exTimes, exDefault, xgb, loads }, (k, v) => (k === 'stdout' ? undefined : v), 1));
console.log('\n### another system: trained on Lustre (cscratch) jobs of the earliest 80 %, GBDT\n');
console.log('| features | burst-buffer jobs: OOD | R²(log) | RMSE | later Lustre jobs: OOD | R²(log) | RMSE |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const x of systems) console.log(`| ${x.label} | ${(100 * x.bb.ood).toFixed(1)} % of ${x.bb.rows} | ${f3(x.bb.metrics.r2)} | ${f3(x.bb.metrics.rmse)} | ${(100 * x.later.ood).toFixed(1)} % of ${x.later.rows} | ${f3(x.later.metrics.r2)} | ${f3(x.later.metrics.rmse)} |`);
console.log(`\n${trainSplit.stdout}`);
