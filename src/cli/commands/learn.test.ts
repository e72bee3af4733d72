import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, SHARED } from '../../testing/corpus.js';
import { reportSchemaErrors } from '../../testing/schema.js';
import { constantColumns, logMetrics, toModelSpace, typicalRow } from '../../learn/index.js';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioSplit } from '../../learn/testing/tokio.js';
import { explainRows, loadBundle, predictRows, readRows, zeroFeatures } from '../../models/index.js';
import { openStore } from '../../store/db.js';

/** `iolens train | predict | explain | report --model` run as a user runs them, on real data. */

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const dir = mkdtempSync(join(tmpdir(), 'iolens-learn-'));
const LOG_DIRS = [join(SHARED, 'darshan-logs', 'generated'), join(SHARED, 'darshan-logs', 'public')];
const LOGS = LOG_DIRS.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.darshan')).sort().map((f) => join(d, f)));

function csvRows(text: string): Map<string, string> {
  const [head, ...lines] = text.trim().split('\n');
  assert.equal(head, 'hash,path,job_id,prediction,low,high,ood,ood_reasons');
  return new Map(lines.map((l) => [l.slice(0, l.indexOf(',')), l]));
}

function checkAdditive(e: { base: number; output: number; contributions: { feature: string; value: unknown; shap: number }[] }, what: string): void {
  const sum = e.contributions.reduce((s, c) => s + c.shap, 0);
  assert.ok(Math.abs(e.base + sum - e.output) < 1e-9, `${what}: base + Σ shap = ${e.base + sum}, output ${e.output}`);
}

test('jobs table: train is deterministic, predict on logs equals predict on their stored rows, explain adds up, report --model', async () => {
  const db = join(dir, 'jobs.duckdb');
  const ing = cli('ingest', ...LOG_DIRS, '--db', db, '-q');
  assert.equal(ing.status, 0, ing.stderr);
  const a = join(dir, 'a.json');
  const t1 = cli('train', '--db', db, '--models', 'gbdt,ridge', '--seed', '7', '--out', a);
  assert.equal(t1.status, 0, t1.stderr);
  assert.match(t1.stdout, /^Trained on 155 rows of jobs \(4 without a finite target skipped\): target io_mibs as log10\(1\+y\), 175 features → 175 model columns\.$/m);
  assert.match(t1.stdout, /^Validation: a random 31 \(seed 7\); every setting chosen there/m);
  assert.match(t1.stdout, /^gbdt +0\.\d{3} +\d\.\d{3} +-?\d\.\d{3} +×\d\.\d{3}$/m);
  assert.match(t1.stdout, /^ensemble \(average, w ∝ 1\/RMSE²\) +\d\.\d{3}/m);
  assert.match(t1.stdout, /^Best single model: (gbdt|ridge) \(validation RMSE/m);
  assert.match(t1.stderr, /^iolens train \[\d+\.\d s\]: gbdt: validation RMSE/m);
  // Same data, same seed: the same bytes. An existing file is never overwritten without --force.
  const b = join(dir, 'b.json');
  assert.equal(cli('train', '--db', db, '--models', 'gbdt,ridge', '--seed', '7', '--out', b, '-q').status, 0);
  assert.equal(readFileSync(b, 'utf8'), readFileSync(a, 'utf8'));
  // The same jobs stored in another order (other inputs first, one worker): the same model.
  const db2 = join(dir, 'jobs-reversed.duckdb');
  assert.equal(cli('ingest', ...[...LOG_DIRS].reverse(), '--db', db2, '-q', '-j', '1').status, 0);
  const [first, last] = await Promise.all([db, db2].map(async (d) => {
    const s = await openStore(d, { readOnly: true });
    try {
      return (await s.con.runAndReadAll('SELECT first(hash), last(hash) FROM jobs')).getRows()[0].join(' ');
    } finally {
      s.close();
    }
  }));
  assert.notEqual(first, last, 'the two stores hold their rows in different orders');
  const c = join(dir, 'c.json');
  assert.equal(cli('train', '--db', db2, '--models', 'gbdt,ridge', '--seed', '7', '--out', c, '-q').status, 0);
  const withoutDb = (f: string) => ({ ...JSON.parse(readFileSync(f, 'utf8')), inputs: null });
  assert.deepEqual(withoutDb(c), withoutDb(a));
  const again = cli('train', '--db', db, '--models', 'ridge', '--out', b);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /^iolens: .*b\.json already exists; not overwriting \(use --force\)\n$/);
  const doc = JSON.parse(readFileSync(a, 'utf8'));
  assert.deepEqual(doc.inputs.features.sets, [{ id: 'totals', version: 2 }, { id: 'aiio', version: 1 }, { id: 'gauge', version: 1 }]);
  assert.equal(doc.inputs.table, 'jobs');
  assert.equal(doc.inputs.key, 'hash');

  // Logs given directly become exactly the rows ingest stored: the same predictions, digit for digit.
  const fromLogs = cli('predict', '--model', a, ...LOGS);
  assert.equal(fromLogs.status, 0, fromLogs.stderr);
  const fromStore = cli('predict', '--model', a, '--db', db, '--csv');
  assert.equal(fromStore.status, 0, fromStore.stderr);
  const logRows = csvRows(fromLogs.stdout);
  const storeRows = csvRows(fromStore.stdout);
  assert.equal(storeRows.size, 159);
  assert.deepEqual(logRows, storeRows);

  // explain on a log: base + Σ shap = output = log10(1 + predict's prediction); zero counters get exactly 0.
  const log = join(SHARED, 'darshan-logs', 'generated', 'ior-random-read-1k.darshan');
  const ex = cli('explain', '--model', a, log, '--json');
  assert.equal(ex.status, 0, ex.stderr);
  const e = JSON.parse(ex.stdout);
  checkAdditive(e, 'log');
  const line = csvRows(cli('predict', '--model', a, log).stdout);
  // (each row names its log and job beside the hash, as explain --json does)
  const [, path, jobId, pred] = [...line.values()][0].split(',');
  assert.deepEqual([path, jobId], [e.path, e.jobId]);
  assert.equal(path, log);
  assert.equal(e.prediction, Number(pred));
  assert.ok(Math.abs(e.output - Math.log10(1 + Number(pred))) < 1e-12);
  // counters weighed against none: a zero one gets exactly 0; settings and scale against the typical job
  const zeroRef = new Set(zeroFeatures(loadBundle(a).model).flatMap((z, i) => (z ? [loadBundle(a).model.preprocessor.features[i].name] : [])));
  const zeros = e.contributions.filter((c: { feature: string; value: unknown }) => c.value === 0 && zeroRef.has(c.feature));
  assert.ok(zeros.length > 20);
  for (const c of zeros) assert.equal(c.shap, 0, c.feature);
  for (const l of e.lines as { feature: string; against: string; reference: unknown }[]) assert.equal(l.against === 'zero', zeroRef.has(l.feature) && l.reference === 0, l.feature);
  // --baseline zero is AIIO's: every zero value gets exactly 0
  const ez = JSON.parse(cli('explain', '--model', a, log, '--json', '--baseline', 'zero').stdout);
  checkAdditive(ez, 'log, zero baseline');
  for (const c of ez.contributions.filter((c: { value: unknown }) => c.value === 0)) assert.equal(c.shap, 0, c.feature);
  assert.equal(e.key.column, 'hash');
  const words = cli('explain', '--model', a, '--db', db, '--id', e.key.value);
  assert.equal(words.status, 0, words.stderr);
  assert.match(words.stdout, /^hash [0-9a-f]{64}: predicted .* MiB\/s \(.* to .*\), measured .* MiB\/s$/m);
  assert.match(words.stdout, /^  .* (cost|raised throughput) ×[\d.]+/m);

  // Additivity on every row of the store, for both baselines.
  const bundle = loadBundle(a);
  const rows = await readRows(bundle, { kind: 'store', db, table: 'jobs' });
  const p = predictRows(bundle, rows);
  // No explanation blames a feature (nearly) constant in the training rows (13 on these logs, e.g. HDF5 and
  // PnetCDF counters), nor a setting at its typical value (POSIX_MEM_ALIGNMENT = 8 on most of them).
  const pre = bundle.model.preprocessor;
  const constant = new Set(constantColumns(pre).flatMap((c, i) => (c ? [pre.features[pre.columnFeature[i]].name] : [])));
  assert.ok(constant.size >= 5 && constant.has('aiio_posix_mmaps'), [...constant].join(', '));
  const align = pre.features.find((f) => f.name === 'aiio_posix_mem_alignment')!;
  const typicalAlign = 10 ** typicalRow(bundle.model)[align.column] - 1;
  assert.ok(Math.abs(typicalAlign - 8) < 1e-9);
  // (the aiio set stores log10(x + 1))
  const eight = Math.log10(9);
  const atTypical = (rows.loaded.table.columns.aiio_posix_mem_alignment as Float64Array).filter((v) => v === eight).length;
  assert.ok(atTypical > 100, String(atTypical));
  for (const baseline of ['typical', 'zero', 'path'] as const) {
    explainRows(bundle, rows, { baseline }).forEach((x, r) => {
      checkAdditive(x, `${baseline} row ${r}`);
      assert.ok(Math.abs(x.output - p.output[r]) < 1e-12);
      if (baseline !== 'path') for (const c of x.contributions) if (constant.has(c.feature)) assert.equal(c.shap, 0, `${baseline} row ${r}: ${c.feature} is constant in training`);
      if (baseline === 'typical') for (const c of x.contributions) if (c.feature === 'aiio_posix_mem_alignment' && c.value === eight) assert.equal(c.shap, 0, `row ${r}: the typical alignment`);
    });
  }

  // report --model: the learned section in the JSON (schema-valid) and in every renderer.
  const rj = cli('report', log, '--model', a, '--json');
  assert.equal(rj.status, 0, rj.stderr);
  const rep = JSON.parse(rj.stdout);
  assert.deepEqual(reportSchemaErrors(rep), []);
  assert.equal(rep.learned.predicted, Number(pred));
  assert.equal(rep.learned.model.file, 'a.json');
  assert.equal(rep.learned.model.unit, 'MiB/s');
  assert.ok(Math.abs(rep.learned.output - Math.log10(1 + rep.learned.predicted)) < 1e-12);
  assert.ok(rep.learned.contributors.length > 0 && rep.learned.contributors.every((c: { shap: number; factor: number }) => Math.abs(10 ** Math.abs(c.shap) - c.factor) < 1e-12));
  // The learned diagnosis is findings of the one contract (source "model"): L01 expected against measured, L02 per
  // ranked cause, levelled by their seconds and at most WARN; every other finding and the rest of the report as
  // without the model.
  const plainJson = JSON.parse(cli('report', log, '--json').stdout);
  const model = rep.insights.filter((i: { source?: string }) => i.source === 'model');
  assert.deepEqual([...new Set(model.map((i: { code: string }) => i.code))].sort(), model.length > 1 ? ['L01', 'L02'] : ['L01']);
  for (const f of model) {
    assert.deepEqual(f.model, { file: 'a.json', table: 'jobs', target: 'io_mibs' });
    assert.ok(f.level !== 'HIGH' && (f.level === 'INFO' || f.level === 'OK' || f.cost.seconds > 0), f.message);
    if (f.code === 'L02') {
      // never more seconds than a check measured for the same problem, in its semantics
      for (const c of plainJson.insights.filter((i: { problem?: string; cost?: { seconds: number } }) => i.problem === f.problem && i.cost)) {
        if (c.cost.semantics === f.cost.semantics && f.data.checks.split(', ').includes(c.code)) assert.ok(f.cost.seconds <= c.cost.seconds + 1e-12, f.message);
      }
    }
  }
  const withModel = JSON.parse(JSON.stringify(rep));
  delete withModel.learned;
  withModel.insights = withModel.insights.filter((i: { source?: string }) => i.source !== 'model');
  for (const k of ['summary', 'messages']) delete withModel[k];
  const { summary: _s, messages: _m, ...rest } = plainJson;
  assert.deepEqual(withModel, rest, 'the rest of the report is unchanged');
  assert.equal(rep.summary.high + rep.summary.warn + rep.summary.ok + rep.summary.info, rep.insights.length);
  // every renderer shows them as findings, with no block of their own
  const term = cli('report', log, '--model', a).stdout;
  assert.match(term, /▶ \[(INFO|WARN) L01\] The model expected .* MiB\/s/);
  assert.ok(!term.includes('LEARNED DIAGNOSIS'));
  assert.match(cli('report', log, '--model', a, '--markdown').stdout, /^- (ℹ️ INFO|🟠 WARN) .*The model expected/m);
  assert.match(cli('report', log, '--model', a, '--html').stdout, /The model expected/);
  const csv = cli('report', log, '--model', a, '--csv').stdout.trim().split('\n');
  assert.match(csv[0], /,D22,L01,L02$/);
  assert.equal(csv[1].split(',').length, csv[0].split(',').length);
  assert.match(csv[1], /,True,(True|False)$/);

  // Bad input: one line, exit 2.
  for (const [args, msg] of [
    [['report', log, '--model', a, '--drishti'], /--model goes with the default mode/],
    [['predict', '--model', join(REPO_ROOT, 'README.md'), log], /README\.md: model file is not valid JSON/],
    [['predict', '--model', a], /give Darshan logs, or --db FILE/],
    [['train', '--db', db, '--models', 'gbdt,xgb', '--out', join(dir, 'x.json')], /--models: unknown model xgb; known: gbdt, forest, ridge, poly2, knn, mlp/],
    [['train', '--db', db, '--table', 'sacct', '--out', join(dir, 'x.json')], /table sacct is not the jobs table: name the column to predict with --target/],
    [['explain', '--model', a, '--db', db, '--id', 'nope'], /no row with hash = nope/],
  ] as const) {
    const r = cli(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
    assert.match(r.stderr, msg);
  }
});

test('TOKIO-ABC: trained on the earliest 80 % by start time, the latest 20 % meet the issue goals; leak guard; OOD on another file system', () => {
  const tokio = readTokio(TOKIO_CORI);
  const split = tokioSplit(tokio);
  const start = tokio.columns._datetime_start as Float64Array;
  const cutoff = Math.max(...Array.from(split.train, (r) => start[r]));
  const db = join(dir, 'tokio.duckdb');
  const imp = cli('import-features', TOKIO_CORI, '--db', db, '--table', 'tokio', '--key', '_row', '-q');
  assert.equal(imp.status, 0, imp.stderr);
  // The features plus two that leak (node-hours = nodes × the job's window; a server total = rate × window).
  const features = join(dir, 'tokio.features');
  writeFileSync(features, `${readFileSync(join(REPO_ROOT, 'samples', 'tokio-abc.features'), 'utf8')}jobsdb_concurrent_nodehrs\nfs_tot_bytes_written\n`);
  const base = ['--db', db, '--table', 'tokio', '--target', TOKIO_TARGET, '--features', features, '--time', '_datetime_start', '--seed', '1'];
  const strict = cli('train', ...base, '--strict', '--models', 'ridge', '--out', join(dir, 'strict.json'), '-q');
  assert.equal(strict.status, 2);
  assert.match(strict.stderr, /^iolens: feature jobsdb_concurrent_nodehrs leaks the answer: .* \(and 1 more\)\n$/);
  const model = join(dir, 'tokio.json');
  const t = cli('train', ...base, '--models', 'gbdt', '--where', `_datetime_start <= ${cutoff}`, '--out', model, '-q');
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^Trained on 6,464 rows of features_tokio: target darshan_agg_perf_by_slowest_posix as log10\(1\+y\), 132 features \(of 137 offered\) → 136 model columns\.$/m);
  // the feature set's paths are identifiers, named in the summary
  for (const f of ['darshan_app', 'darshan_biggest_read_fs', 'darshan_biggest_write_fs']) assert.match(t.stdout, new RegExp(`^Leak guard dropped ${f}: an identifier \\(\\d+ % of its values are paths\\): a path or id is not a cause$`, 'm'));
  assert.match(t.stdout, /^Leak guard dropped jobsdb_concurrent_nodehrs: /m);
  assert.match(t.stdout, /^Leak guard dropped fs_tot_bytes_written: /m);

  const p = cli('predict', '--model', model, '--db', db, '--where', `_datetime_start > ${cutoff}`, '--json');
  assert.equal(p.status, 0, p.stderr);
  const out = JSON.parse(p.stdout) as { _row: number; prediction: number; ood: boolean }[];
  assert.equal(out.length, 1616);
  const byRow = new Map(Array.from(tokio.columns._row as Float64Array, (k, i) => [k, (tokio.columns[TOKIO_TARGET] as Float64Array)[i]]));
  const m = logMetrics(
    out.map((o) => toModelSpace(byRow.get(o._row) as number)),
    out.map((o) => toModelSpace(o.prediction)),
  );
  assert.ok(m.r2 >= 0.9, `R²(log) ${m.r2}`);
  assert.ok(m.rmse <= 0.155, `RMSE(log10) ${m.rmse}`);
  assert.ok(out.filter((o) => o.ood).length / out.length <= 0.1, 'OOD on later rows of the training system');

  // Explain a test row: additive, and its prediction is predict's.
  const ex = JSON.parse(cli('explain', '--model', model, '--db', db, '--id', String(out[0]._row), '--json').stdout);
  checkAdditive(ex, 'tokio');
  assert.equal(ex.prediction, out[0].prediction);

  // Another system: trained on Lustre scratch jobs, scored on DataWarp burst-buffer jobs (the file's only other
  // storage system); and on later Lustre jobs.
  const lus = join(dir, 'lustre.json');
  const tl = cli('train', ...base, '--models', 'ridge', '--where', `_datetime_start <= ${cutoff} AND _file_system = 'cscratch'`, '--out', lus, '-q');
  assert.equal(tl.status, 0, tl.stderr);
  const rate = (where: string) => {
    const r = JSON.parse(cli('predict', '--model', lus, '--db', db, '--where', where, '--json').stdout) as { ood: boolean }[];
    return r.filter((o) => o.ood).length / r.length;
  };
  assert.ok(rate('_file_system IS NULL') >= 0.9);
  assert.ok(rate(`_datetime_start > ${cutoff} AND _file_system = 'cscratch'`) <= 0.1);

  // A model of another table cannot read a log: one line saying so.
  const onLog = cli('predict', '--model', model, join(SHARED, 'darshan-logs', 'generated', 'ior-random-read-1k.darshan'));
  assert.equal(onLog.status, 2);
  assert.match(onLog.stderr, /^iolens: the model was trained on table features_tokio, whose columns a Darshan log does not have \(darshan_.*\); train on the jobs table to use it on logs\n$/);
  assert.equal(cli('report', join(SHARED, 'darshan-logs', 'generated', 'ior-random-read-1k.darshan'), '--model', model).status, 2);
  assert.equal(JSON.parse(readFileSync(model, 'utf8')).inputs.where, `_datetime_start <= ${cutoff}`);

  // Two-stage and app history from the command line (small: ridge on a third of the training rows).
  const two = join(dir, 'two.json');
  const ts = cli('train', ...base, '--models', 'ridge', '--two-stage', 'fs_ave_*_cpu', '--stage1-models', 'ridge', '--history', '--history-by', 'darshan_app', '--where', `_datetime_start <= ${cutoff} AND _row % 3 = 0`, '--out', two, '-q');
  assert.equal(ts.status, 0, ts.stderr);
  assert.match(ts.stdout, /^Stage 1 fs_ave_mds_cpu \(ridge\): cross-fit R²\(log\) \d\.\d{3}, RMSE \d\.\d{3}, median ×\d\.\d{3}; validation R² -?\d\.\d{3}$/m);
  assert.match(ts.stdout, /^Stage 1 fs_ave_oss_cpu \(ridge\): /m);
  assert.match(ts.stdout, /^App history: median darshan_agg_perf_by_slowest_posix of the previous 5 runs by darshan_app \(strictly earlier _datetime_start\)\.$/m);
  const tp = JSON.parse(cli('predict', '--model', two, '--db', db, '--where', `_datetime_start > ${cutoff}`, '--json').stdout) as { prediction: number }[];
  assert.equal(tp.length, 1616);
  assert.ok(tp.every((o) => o.prediction > 0));
});
