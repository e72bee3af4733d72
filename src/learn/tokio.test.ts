import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identifierColumns, leakGuard } from './leak-guard.js';
import { logMetrics, toModelSpace } from './metrics.js';
import { predict } from './predict.js';
import { takeRows } from './table.js';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioFeatures, tokioSplit } from './testing/tokio.js';
import { train } from './train.js';

const table = readTokio(TOKIO_CORI);
const split = tokioSplit(table);
const trainT = takeRows(table, split.train);
const testT = takeRows(table, split.test);

test('TOKIO-ABC: the table and the issue-14 feature set', () => {
  assert.equal(table.nRows, 8080);
  const row = table.columns._row as Float64Array;
  assert.equal(new Set(row).size, 8080, '_row keys the rows');
  assert.equal(row[0], 88);
  const names = tokioFeatures(table).map((f) => f.name);
  for (const n of names) assert.ok(!/_time|walltime|total_gibs|jobid|timestamp|_name$|nodehrs|^fs_tot_/.test(n), n);
  assert.ok(names.includes('darshan_tot_bytes_written_posix') && names.includes('fs_ave_oss_cpu') && names.includes('darshan_app'));
  assert.ok(!names.includes(TOKIO_TARGET));
  assert.equal(split.train.length, 6464);
});

test('TOKIO-ABC: the leak guard drops node-hours and server totals (rate × the job window), not the issue’s features', () => {
  const extra = ['jobsdb_concurrent_nodehrs', 'fs_tot_bytes_read', 'fs_tot_bytes_written', 'fs_tot_open_ops'];
  const cands = [...tokioFeatures(table).map((f) => f.name), ...extra];
  const r = leakGuard(trainT, cands, TOKIO_TARGET, '_runtime');
  assert.deepEqual(r.dropped.map((d) => d.feature).sort(), [...extra].sort());
});

test('TOKIO-ABC: GBDT tuned on validation rows of the earliest 80 % predicts the latest 20 % (issue goals)', async () => {
  const model = await train(trainT, { target: TOKIO_TARGET, features: tokioFeatures(table), timeColumn: '_datetime_start', runtimeColumn: '_runtime', models: ['gbdt'], seed: 1 });
  // the feature set's paths are identifiers (the application's executable, the biggest file systems' mount points)
  assert.deepEqual(model.leakGuard.dropped.map((d) => d.feature), ['darshan_app', 'darshan_biggest_read_fs', 'darshan_biggest_write_fs']);
  const p = predict(model, testT);
  const truth = Float64Array.from(testT.columns[TOKIO_TARGET] as Float64Array, toModelSpace);
  const m = logMetrics(truth, p.output);
  if (process.env.IOLENS_SHOW) console.log(`later Cori: R² ${m.r2}, RMSE ${m.rmse}, median ×${m.medianErrorFactor}`);
  assert.ok(m.r2 >= 0.9, `R²(log) ${m.r2}`);
  assert.ok(m.rmse <= 0.155, `RMSE(log10) ${m.rmse}`);
  const base = logMetrics(truth, new Float64Array(truth.length).fill(median(model)));
  assert.ok(m.rmse < base.rmse / 2);
  // Later jobs of the training system: at most 10 % flagged out of distribution.
  const oodRate = p.ood.filter(Boolean).length / p.ood.length;
  assert.ok(oodRate <= 0.1, `OOD on later rows: ${oodRate}`);
});

function median(model: { reference: { y: Float64Array } }): number {
  const s = Float64Array.from(model.reference.y).sort();
  return s[s.length >> 1];
}

test('TOKIO-ABC: identifiers are dropped — paths, mount points with job ids, job ids — and the categories that measure are kept', () => {
  const all = Object.keys(table.columns);
  const ids = identifierColumns(trainT, all);
  assert.deepEqual(Object.fromEntries(ids.map((d) => [d.feature, d.reason.replace(/\d+ %/, 'N %')])), {
    _jobid: 'an identifier (its name says so): a job, user, host or file name is not a cause',
    darshan_jobid: 'an identifier (its name says so): a job, user, host or file name is not a cause',
    darshan_app: 'an identifier (N % of its values are paths): a path or id is not a cause',
    darshan_biggest_read_fs: 'an identifier (N % of its values are paths): a path or id is not a cause',
    darshan_biggest_write_fs: 'an identifier (N % of its values are paths): a path or id is not a cause',
  });
  // without its paths, a mount point with a job id in it is still caught by the id, and a column of one value per job by its count
  const fs = trainT.columns.darshan_biggest_write_fs as (string | null)[];
  const noSlash = { nRows: trainT.nRows, columns: { fs: fs.map((v) => (v === null ? null : v.replace(/\//g, ':'))), job: Array.from(trainT.columns._jobid as Float64Array, (v) => `job-${v}-${Math.round(v * 7) % 9973}`) } };
  assert.deepEqual(identifierColumns(noSlash, ['fs', 'job']).map((d) => d.feature), ['fs', 'job']);
  // trained with every string column offered: the identifiers are named in the model and never features
  const strings = all.filter((c) => !(table.columns[c] instanceof Float64Array));
  return train(takeRows(trainT, Array.from({ length: 400 }, (_, i) => i * 16)), {
    target: TOKIO_TARGET,
    features: [{ name: 'darshan_nprocs', kind: 'numeric' }, ...strings.map((name) => ({ name, kind: 'categorical' as const }))],
    models: ['ridge'],
    seed: 1,
    parallel: false,
  }).then((m) => {
    assert.deepEqual(m.leakGuard.dropped.map((d) => d.feature).sort(), ['darshan_app', 'darshan_biggest_read_fs', 'darshan_biggest_write_fs']);
    assert.deepEqual(m.preprocessor.features.map((f) => f.name).sort(), ['_file_system', 'darshan_biggest_read_api', 'darshan_biggest_write_api', 'darshan_nprocs', 'fshealth_ost_least_full_name', 'fshealth_ost_most_full_name']);
  });
});
