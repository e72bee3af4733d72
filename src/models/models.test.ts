import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { test } from 'node:test';
import { FEATURE_SETS } from '../features/registry.js';
import { makeTable, predict, takeRows } from '../learn/index.js';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioFeatures, tokioSplit } from '../learn/testing/tokio.js';
import { JOB_COLUMNS } from '../store/schema.js';
import { modelTable, parseBundle, serializeBundle, withZeros } from './bundle.js';
import { defaultJobFeatures, fileFeatures, parseFeatureFile, presetFeatures, zeroWhenMissing } from './features.js';
import { entriesOf, historyFeatures, historyTail, type HistorySettings } from './history.js';
import { matchProblems, rankedCauses } from './learned.js';
import { problemsOfFeature } from '../features/problems.js';
import { trainBundle } from './train-model.js';
import { contributionText, describeFeature, problemsOf, STEMS } from './words.js';
import type { Finding } from '../contract/index.js';

test('default features of the jobs table: every feature set column but time columns; transforms follow the unit', () => {
  const d = defaultJobFeatures();
  const names = d.specs.map((s) => s.name);
  const jobCols = new Set(JOB_COLUMNS.map((c) => c.name));
  for (const n of names) assert.ok(jobCols.has(n), n);
  for (const n of ['io_time', 'posix_read_time', 'mpiio_meta_time', 'gauge_log10_run_time', 'gauge_log10_read_time']) assert.ok(!names.includes(n), n);
  for (const n of ['total_bytes', 'posix_bytes_written', 'aiio_posix_size_write_1k_10k', 'gauge_size_write_1k_10k_perc', 'gauge_log10_total_bytes']) assert.ok(names.includes(n), n);
  const spec = (n: string) => d.specs.find((s) => s.name === n);
  assert.deepEqual(spec('aiio_posix_seeks'), { name: 'aiio_posix_seeks', kind: 'numeric', transform: 'none' });
  assert.deepEqual(spec('gauge_reads_perc'), { name: 'gauge_reads_perc', kind: 'numeric', transform: 'none' });
  assert.deepEqual(spec('aiio_posix_dups'), { name: 'aiio_posix_dups', kind: 'numeric', transform: 'slog' });
  assert.deepEqual(spec('posix_opens'), { name: 'posix_opens', kind: 'numeric', transform: 'slog' });
  const all = FEATURE_SETS.flatMap((s) => s.columns.map((c) => ({ ...c, name: `${s.columnPrefix}${c.name}` })));
  assert.equal(names.length, all.filter((c) => c.unit !== 'seconds' && !/_time$/.test(c.name)).length);
  assert.deepEqual(d.sets, FEATURE_SETS.map((s) => ({ id: s.id, version: s.version })));
  const aiio = presetFeatures('aiio');
  assert.equal(aiio.specs.length, 64);
  assert.ok(presetFeatures('gauge').specs.every((s) => !/_time$/.test(s.name)));
  assert.throws(() => presetFeatures('nope'), /unknown preset nope; known: aiio, gauge/);
  // Module totals are NULL when the module is absent from the log: for learning that counts as 0.
  const zero = zeroWhenMissing(names);
  assert.ok(zero.includes('mpiio_writes') && zero.includes('daos_bytes_read') && zero.includes('total_bytes'));
  assert.ok(!zero.some((n) => n.startsWith('aiio_') || n.startsWith('gauge_')));
  const t = makeTable({ mpiio_writes: Float64Array.from([NaN, 3]), x: Float64Array.from([NaN, 1]) });
  const z = withZeros(t, ['mpiio_writes']);
  assert.deepEqual([Array.from(z.columns.mpiio_writes as Float64Array), Array.from(z.columns.x as Float64Array)], [[0, 3], [NaN, 1]]);
  assert.equal(z.columns.x, t.columns.x);
});

test('features file: one column a line, # comments, optional kind and transform; bad lines named', () => {
  const lines = parseFeatureFile('# header\n\nposix_opens   # a counter\napp categorical\nratio_x numeric none\n', 'f.txt');
  assert.deepEqual(lines, [{ name: 'posix_opens' }, { name: 'app', kind: 'categorical' }, { name: 'ratio_x', kind: 'numeric', transform: 'none' }]);
  assert.throws(() => parseFeatureFile('a\na\n', 'f.txt'), /f\.txt:2: a is listed twice/);
  assert.throws(() => parseFeatureFile('a log\n', 'f.txt'), /f\.txt:1: unknown word 'log'/);
  assert.throws(() => parseFeatureFile('# nothing\n', 'f.txt'), /f\.txt: no columns listed/);
  const kinds = { posix_opens: 'numeric', app: 'string', ratio_x: 'numeric' } as const;
  const c = fileFeatures(lines, kinds, 'jobs');
  assert.deepEqual(c.specs, [
    { name: 'posix_opens', kind: 'numeric', transform: 'slog' },
    { name: 'app', kind: 'categorical' },
    { name: 'ratio_x', kind: 'numeric', transform: 'none' },
  ]);
  assert.deepEqual(c.sets, [{ id: 'totals', version: 2 }]);
  assert.throws(() => fileFeatures([{ name: 'app', kind: 'numeric' }], kinds, 'jobs'), /column app of jobs holds text; it can only be categorical/);
  assert.throws(() => fileFeatures([{ name: 'nope' }], kinds, 'jobs'), /table jobs has no column nope/);
});

test('words: a contribution in plain words with the counter, its value and the factor', () => {
  const text = contributionText({ feature: 'aiio_posix_size_write_1k_10k', value: Math.log10(52000 + 1), shap: -Math.log10(3.1) });
  assert.equal(text, 'writes of 1–10 KiB (POSIX_SIZE_WRITE_1K_10K = 52,000) cost ×3.1 of throughput');
  assert.equal(contributionText({ feature: 'gauge_size_read_0_100_perc', value: 0.25, shap: 0.1 }), 'share of accesses that are reads of 0–100 B (gauge_size_read_0_100_perc = 25.0%) raised throughput ×1.3');
  assert.equal(contributionText({ feature: 'posix_bytes_written', value: 3 * 2 ** 30, shap: -1 }), 'POSIX bytes written (posix_bytes_written = 3.00 GiB) cost ×10 of throughput — context, not a pattern to fix');
  assert.equal(contributionText({ feature: 'gauge_log10_total_files', value: 2, shap: 2 }), 'POSIX files (gauge_log10_total_files = 99) raised throughput ×100');
  assert.equal(contributionText({ feature: 'mpiio_writes', value: NaN, shap: -0.05 }), 'MPI-IO write operations (mpiio_writes = not recorded) cost ×1.1 of throughput');
  // A column of another table keeps its own name (TOKIO's num_ columns count files, not bytes).
  assert.equal(contributionText({ feature: 'darshan_num_bytes_read_posix', value: 1, shap: -0.2 }), 'darshan_num_bytes_read_posix = 1 cost ×1.6 of throughput — context, not a pattern to fix');
  // with what it was weighed against, its near duplicates, and no factor beyond what the training jobs show
  assert.equal(
    contributionText({ feature: 'aiio_posix_mem_alignment', value: Math.log10(17), shap: -0.1 }, { reference: Math.log10(9) }),
    'the memory alignment (POSIX_MEM_ALIGNMENT = 16 B, typical 8 B) cost ×1.3 of throughput — a setting',
  );
  assert.equal(
    contributionText({ feature: 'darshan_max_file_not_aligned_posix', value: 16896, shap: -0.3 }, { alike: ['darshan_ave_file_not_aligned_posix'] }),
    'darshan_max_file_not_aligned_posix = 16,896 (with 1 alike: darshan_ave_file_not_aligned_posix) cost ×2.0 of throughput',
  );
  assert.equal(
    contributionText({ feature: 'darshan_nprocs', value: 512, shap: 10 }, { reference: 64, limit: 300 }),
    'darshan_nprocs = 512, typical 64 raised throughput by more than the training jobs differ (×300): the model extrapolates, no factor — context, not a pattern to fix',
  );
  assert.equal(describeFeature('predicted_fs_ave_oss_cpu').words, 'fs_ave_oss_cpu (predicted before the run)');
});

test('problem tags of features: derived in one place from the counters the features document', () => {
  const expect: Record<string, string[]> = {
    aiio_posix_size_write_1k_10k: ['small-writes'],
    aiio_posix_size_write_100k_1m: ['small-writes'],
    aiio_posix_size_write_1m_4m: [],
    gauge_size_read_0_100_perc: ['small-reads'],
    aiio_posix_seeks: ['random-write', 'random-read', 'strided-access'],
    aiio_posix_stats: ['metadata-heavy', 'many-small-files'],
    posix_opens: ['metadata-heavy', 'many-small-files'],
    gauge_log10_opens: ['metadata-heavy', 'many-small-files'],
    aiio_posix_fsyncs: ['excessive-fsync'],
    aiio_posix_fdsyncs: ['excessive-fsync'],
    aiio_posix_rw_switches: ['rw-switches'],
    gauge_rw_switches_perc: ['rw-switches'],
    aiio_posix_file_not_aligned: ['misaligned-file'],
    aiio_posix_mem_not_aligned: ['misaligned-memory'],
    aiio_posix_stride1_stride: ['strided-access'],
    aiio_posix_f_variance_rank_bytes: ['rank-imbalance', 'rank0-only-io'],
    aiio_posix_bytes_written: [],
    aiio_posix_seq_reads: [],
    gauge_consec_writes_perc: [],
    aiio_posix_access1_access: [],
    aiio_nprocs: [],
    stdio_writes: ['stdio-heavy'],
    darshan_tot_stats_posix: ['metadata-heavy'],
    darshan_max_file_not_aligned_posix: ['misaligned-file'],
    fs_ave_oss_cpu: [],
  };
  for (const [f, p] of Object.entries(expect)) assert.deepEqual(problemsOf(f), p, f);
  // A feature-set column's tags are the feature → problem map's, the map the lab's blame test scores.
  for (const set of FEATURE_SETS) for (const c of set.columns) assert.deepEqual(problemsOf(set.columnPrefix + c.name), problemsOfFeature(set.columnPrefix + c.name), c.name);
  // Every stem's own name matches that stem first (no earlier, broader stem shadows it).
  for (const s of STEMS) assert.equal(describeFeature(`x_${s.stem.toLowerCase()}`).problems, s.problems, s.stem);
  // Every feature-set column is described by words other than its raw name.
  for (const set of FEATURE_SETS) for (const c of set.columns) assert.notEqual(describeFeature(`${set.columnPrefix}${c.name}`).words, `${set.columnPrefix}${c.name}`, c.name);
});

test('blame against findings: corroborated, model only, findings only (among tags the model can show), most costly first', () => {
  const finding = (code: string, level: Finding['level'], problem: Finding['problem']): Finding =>
    ({ code, level, problem, panel: 'OPERATIONS', messageId: '', message: '', data: {}, evidence: [], thresholds: [], details: [], recommendations: [] }) as Finding;
  const insights = [finding('D10', 'HIGH', 'small-writes'), finding('P06', 'WARN', 'small-writes'), finding('D03', 'HIGH', 'excessive-fsync'), finding('D05', 'OK', 'metadata-heavy'), finding('D07', 'HIGH', 'rank-imbalance')];
  const contributions = [
    { feature: 'aiio_posix_size_write_1k_10k', shap: -0.5 },
    { feature: 'gauge_size_write_0_100_perc', shap: -0.05 },
    { feature: 'aiio_posix_seeks', shap: -0.2 },
    { feature: 'aiio_posix_fsyncs', shap: -0.01 },
    { feature: 'aiio_posix_stats', shap: 0.3 },
    { feature: 'aiio_posix_rw_switches', shap: -0.3 },
    { feature: 'aiio_nprocs', shap: -0.9 },
  ];
  const features = [...contributions.map((c) => c.feature), 'aiio_posix_bytes_read'];
  assert.deepEqual(matchProblems(contributions, insights, features), {
    corroborated: [{ problem: 'small-writes', findings: ['D10', 'P06'], features: ['aiio_posix_size_write_1k_10k', 'gauge_size_write_0_100_perc'], shap: -0.5 }],
    // rw-switches (×2.0) before the seeks' problems (×1.6), though the vocabulary lists it after them; the process
    // count costs most but names no problem.
    modelOnly: [
      { problem: 'rw-switches', findings: [], features: ['aiio_posix_rw_switches'], shap: -0.3 },
      { problem: 'random-write', findings: [], features: ['aiio_posix_seeks'], shap: -0.2 },
      { problem: 'random-read', findings: [], features: ['aiio_posix_seeks'], shap: -0.2 },
      { problem: 'strided-access', findings: [], features: ['aiio_posix_seeks'], shap: -0.2 },
    ],
    // fsyncs cost less than ×1.1; no feature of this model speaks to rank imbalance.
    findingsOnly: [{ problem: 'excessive-fsync', findings: ['D03'], features: [] }],
  });
  // The ranking alone (the lab's blame test scores its first cause): ties of one feature in vocabulary order.
  assert.deepEqual(
    rankedCauses(contributions).map((c) => [c.problem, c.cost]),
    [['small-writes', -0.5], ['rw-switches', -0.3], ['random-write', -0.2], ['random-read', -0.2], ['strided-access', -0.2]],
  );
});

test('app history: the median of the previous k runs of the same group, strictly earlier, never a later row', () => {
  const t = makeTable({
    app: ['a', 'a', 'b', 'a', 'a', 'a', 'b'],
    time: Float64Array.from([10, 20, 20, 30, 30, 40, NaN]),
    y: Float64Array.from([1, 3, 100, 5, 7, -1, 9]),
  });
  const s: HistorySettings = { by: ['app'], k: 2, timeColumn: 'time', target: 'y' };
  const keys = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
  const h = historyFeatures(t, s, keys, entriesOf(t, s, keys));
  // r3 and r4 start together at 30: neither sees the other; r5 sees the last two of r1, r3, r4 (time 20, 30, 30).
  assert.deepEqual(Array.from(h.history_median), [NaN, 1, NaN, 2, 2, 6, NaN]);
  assert.deepEqual(Array.from(h.history_runs), [0, 1, 0, 2, 2, 2, 0]);
  assert.deepEqual(historyTail(entriesOf(t, s, keys), 2).map((e) => e.key), ['r3', 'r4', 'r2']);

  // Property on real data: changing the targets of every row at or after a job's start never changes its history.
  const tokio = readTokio(TOKIO_CORI);
  const rows = Int32Array.from({ length: 2000 }, (_, i) => i * 4);
  const sub = takeRows(tokio, rows);
  const ts: HistorySettings = { by: ['darshan_app'], k: 5, timeColumn: '_datetime_start', target: TOKIO_TARGET };
  const tk = Array.from(sub.columns._row as Float64Array, String);
  const base = historyFeatures(sub, ts, tk, entriesOf(sub, ts, tk));
  const time = sub.columns._datetime_start as Float64Array;
  for (const r of [5, 400, 1234, 1999]) {
    const y = Float64Array.from(sub.columns[TOKIO_TARGET] as Float64Array, (v, i) => (time[i] >= time[r] ? v * 1000 + 7 : v));
    const changed = { ...sub, columns: { ...sub.columns, [TOKIO_TARGET]: y } };
    const h2 = historyFeatures(changed, ts, tk, entriesOf(changed, ts, tk));
    assert.equal(Object.is(h2.history_median[r], base.history_median[r]), true, `row ${r}`);
    assert.equal(h2.history_runs[r], base.history_runs[r]);
  }
  assert.ok(base.history_runs.filter((v) => v === 5).length > 1500);
});

test('two-stage and history on TOKIO rows: first stages cross-fitted, the throughput model ignores the post-run columns, the file round-trips', async () => {
  const tokio = readTokio(TOKIO_CORI);
  const { train: tr } = tokioSplit(tokio);
  const rows = Array.from(tr).filter((_, i) => i % 3 === 0);
  const table = takeRows(tokio, rows);
  const kinds = Object.fromEntries(Object.entries(table.columns).map(([k, v]) => [k, v instanceof Float64Array ? 'numeric' : 'string'] as const));
  const features = tokioFeatures(tokio).filter((f) => !f.name.startsWith('fs_') || /^fs_ave_(oss|mds)_cpu$/.test(f.name));
  const progress: string[] = [];
  const b = await trainBundle({
    loaded: { name: 'tokio', table, kinds },
    db: '/somewhere/t.duckdb',
    target: TOKIO_TARGET,
    features: { specs: features, origin: 'file', preset: null, sets: [] },
    key: '_row',
    timeColumn: '_datetime_start',
    runtimeColumn: '_runtime',
    models: ['ridge'],
    seed: 5,
    twoStage: { columns: ['fs_ave_*_cpu'], models: ['ridge'], folds: 3 },
    history: { by: ['darshan_app'], k: 5 },
    onProgress: (l) => progress.push(l),
  });
  assert.deepEqual(b.stages.map((s) => s.column), ['fs_ave_mds_cpu', 'fs_ave_oss_cpu']);
  assert.equal(b.inputs.db, 't.duckdb');
  const names = b.model.preprocessor.features.map((f) => f.name);
  assert.ok(names.includes('predicted_fs_ave_oss_cpu') && names.includes('history_median') && !names.includes('fs_ave_oss_cpu'));
  for (const s of b.stages) {
    assert.equal(s.crossFit.rows, (table.columns[s.column] as Float64Array).filter((v) => v >= 0).length);
    // (cross-fitted on time blocks: server load out of time is hard to predict, and R² may well be below 0)
    assert.ok(Number.isFinite(s.crossFit.r2) && s.crossFit.r2 < 1, `${s.column} ${s.crossFit.r2}`);
    assert.equal(s.model.reference.nRows, 0);
  }
  assert.equal(progress.filter((l) => l.startsWith('stage 1 ')).length, 2);
  // The post-run columns' own values do not matter: predictions from rows where they are missing are the same.
  const loaded = { name: 'tokio', table, kinds };
  const p1 = predict(b.model, modelTable(b, loaded)).prediction;
  const blanked = { ...table, columns: { ...table.columns, fs_ave_oss_cpu: new Float64Array(table.nRows).fill(NaN), fs_ave_mds_cpu: new Float64Array(table.nRows).fill(NaN) } };
  const p2 = predict(b.model, modelTable(b, { ...loaded, table: blanked })).prediction;
  assert.deepEqual(p2, p1);
  // Round trip: same bytes, same predictions.
  const text = serializeBundle(b);
  const back = parseBundle(text);
  assert.equal(serializeBundle(back), text);
  assert.deepEqual(back.inputs.zeroFill, []);
  assert.deepEqual(predict(back.model, modelTable(back, loaded)).prediction, p1);
  const doc = JSON.parse(text);
  assert.equal(doc.inputs.version, 1);
  assert.equal(doc.inputs.iolens, JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
  assert.equal(doc.inputs.twoStage.stages.length, 2);
  assert.equal(doc.inputs.history.tail.length <= 5 * new Set(table.columns.darshan_app as string[]).size, true);
  assert.throws(() => parseBundle(JSON.stringify({ ...doc, inputs: { ...doc.inputs, version: 2 } })), /inputs version 2; this IOLens reads up to 1/);
});
