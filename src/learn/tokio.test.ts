import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leakGuard } from './leak-guard.js';
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
  assert.deepEqual(model.leakGuard.dropped, []);
  const p = predict(model, testT);
  const truth = Float64Array.from(testT.columns[TOKIO_TARGET] as Float64Array, toModelSpace);
  const m = logMetrics(truth, p.output);
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
