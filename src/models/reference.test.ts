import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explain, makeTable, predict, takeRows, train, type Table } from '../learn/index.js';
import { Rng } from '../learn/rng.js';
import { blameLines, counterKey, groupContributions, zeroFeatures } from './reference.js';

// What the learned blame is weighed against (issue 42, "blame only what could be changed"): counters against none,
// settings and scale against the typical training job, and a column constant in training never blamed, however the
// job's own value differs.

const N = 400;

/** A job table of feature-set columns: a counter that costs throughput, a setting constant in training, scale. */
function jobs(seed: number): Table {
  const g = new Rng(seed);
  const r = () => g.next();
  const fileAlign = new Float64Array(N);
  const small = new Float64Array(N), align = new Float64Array(N), nprocs = new Float64Array(N), seeks = new Float64Array(N), seeksG = new Float64Array(N), y = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    small[i] = r() < 0.4 ? 0 : Math.floor(10 ** (1 + 4 * r()));
    align[i] = 8;
    nprocs[i] = 2 ** Math.floor(1 + 9 * r());
    seeks[i] = r() < 0.5 ? 0 : Math.floor(10 ** (3 * r()));
    seeksG[i] = Math.log10(seeks[i] + 1);
    // the file alignment: one value where recorded, missing on a third of the jobs, which are slower
    fileAlign[i] = r() < 0.33 ? NaN : 4096;
    y[i] = 2000 / (1 + Math.log10(1 + small[i])) * (1 + 0.3 * Math.log2(nprocs[i])) * (0.9 + 0.2 * r()) * (Number.isNaN(fileAlign[i]) ? 0.5 : 1);
  }
  return makeTable({ aiio_posix_size_write_1k_10k: small, aiio_posix_mem_alignment: align, aiio_nprocs: nprocs, aiio_posix_seeks: seeks, gauge_log10_seeks: seeksG, aiio_posix_file_alignment: fileAlign, mibs: y });
}

const FEATURES = [
  { name: 'aiio_posix_size_write_1k_10k', kind: 'numeric' as const },
  { name: 'aiio_posix_mem_alignment', kind: 'numeric' as const },
  { name: 'aiio_nprocs', kind: 'numeric' as const },
  { name: 'aiio_posix_seeks', kind: 'numeric' as const },
  { name: 'gauge_log10_seeks', kind: 'numeric' as const, transform: 'none' as const },
  { name: 'aiio_posix_file_alignment', kind: 'numeric' as const },
];

// (the CLI's default families: kNN, on request only, is left out)
const model = train(jobs(1), { target: 'mibs', features: FEATURES, models: ['gbdt', 'forest', 'ridge', 'poly2', 'mlp'], seed: 3, parallel: false, overrides: { mlp: { maxEpochs: 30 } } });

test('references: counters against 0 when jobs take 0, the setting constant in training never blamed, scale against its median', async () => {
  const m = await model;
  const names = m.preprocessor.features.map((f) => f.name);
  const zero = zeroFeatures(m);
  assert.deepEqual(
    Object.fromEntries(names.map((n, i) => [n, zero[i]])),
    { aiio_posix_size_write_1k_10k: true, aiio_posix_mem_alignment: false, aiio_nprocs: false, aiio_posix_seeks: true, gauge_log10_seeks: true, aiio_posix_file_alignment: false },
  );
  // explained jobs: the training rows plus one whose alignment (16) no training job had
  const t = jobs(2);
  const odd = Float64Array.from(t.columns.aiio_posix_mem_alignment as Float64Array);
  odd[0] = 16;
  const table = makeTable({ ...t.columns, aiio_posix_mem_alignment: odd });
  const rows = Array.from({ length: 60 }, (_, i) => i);
  for (const baseline of ['typical', 'zero'] as const) {
    const ex = explain(m, table, { rows, baseline, zeroFeatures: zero, ood: false });
    const p = predict(m, table, { ood: false });
    for (const e of ex) {
      const shap = Object.fromEntries(e.contributions.map((c) => [c.feature, c.shap]));
      assert.equal(shap.aiio_posix_mem_alignment, 0, `${baseline} row ${e.row}: a setting constant in training gets no blame`);
      assert.equal(shap.aiio_posix_file_alignment, 0, `${baseline} row ${e.row}: nor one constant where recorded, for being missing`);
      if ((t.columns.aiio_posix_size_write_1k_10k as Float64Array)[e.row] === 0) assert.equal(shap.aiio_posix_size_write_1k_10k, 0);
      const sum = e.base + e.contributions.reduce((s, c) => s + c.shap, 0);
      assert.ok(Math.abs(sum - e.output) < 1e-9 && Math.abs(e.output - p.output[e.row]) < 1e-9, `${baseline} row ${e.row} adds up`);
    }
  }
  // nprocs at the training median gets exactly 0 under `typical`; under `zero` it is weighed against no processes
  const median = [...(jobs(1).columns.aiio_nprocs as Float64Array)].sort((a, b) => a - b)[(N - 1) >> 1];
  const atMedian = [...rows].filter((r) => (t.columns.aiio_nprocs as Float64Array)[r] === median);
  assert.ok(atMedian.length > 0);
  for (const e of explain(m, table, { rows: atMedian, baseline: 'typical', zeroFeatures: zero, ood: false })) {
    assert.equal(e.contributions.find((c) => c.feature === 'aiio_nprocs')!.shap, 0);
  }
  // the lines: one line for the two feature sets' seeks, with what each was weighed against
  const [e] = explain(m, table, { rows: [0], baseline: 'typical', zeroFeatures: zero, ood: false });
  const lines = blameLines(m, e.contributions);
  assert.ok(lines.filter((l) => [l.feature, ...l.alike].some((f) => f.endsWith('_seeks'))).length <= 1);
  for (const l of lines) {
    assert.equal(l.against, l.feature === 'aiio_nprocs' ? 'typical' : 'zero', l.feature);
    assert.equal(l.reference, l.feature === 'aiio_nprocs' ? median : 0);
    assert.notEqual(l.feature, 'aiio_posix_file_alignment');
  }
  assert.ok(!lines.some((l) => l.feature === 'aiio_posix_mem_alignment'));
});

test('counterKey: one line for the same counter in another aggregate or feature set and of the same sign, never for different counters', () => {
  assert.equal(counterKey('aiio_posix_seeks'), counterKey('gauge_log10_seeks'));
  assert.equal(counterKey('darshan_max_file_not_aligned_posix'), counterKey('darshan_ave_file_not_aligned_posix'));
  assert.equal(counterKey('darshan_tot_file_not_aligned_posix'), counterKey('darshan_min_file_not_aligned_posix'));
  assert.notEqual(counterKey('darshan_num_reads_posix'), counterKey('darshan_tot_reads_posix'));
  assert.notEqual(counterKey('darshan_tot_reads_posix'), counterKey('darshan_tot_writes_posix'));
  const g = groupContributions([
    { feature: 'darshan_max_file_not_aligned_posix', shap: -0.1 },
    { feature: 'darshan_ave_file_not_aligned_posix', shap: -0.15 },
    { feature: 'darshan_min_file_not_aligned_posix', shap: 0.05 },
    { feature: 'darshan_tot_reads_posix', shap: 0.3 },
    { feature: 'darshan_nprocs', shap: 0 },
  ]);
  // the member of opposite sign is its own line: no line hides a gain inside a cost
  assert.deepEqual(g, [
    { lead: 'darshan_tot_reads_posix', alike: [], shap: 0.3 },
    { lead: 'darshan_ave_file_not_aligned_posix', alike: ['darshan_max_file_not_aligned_posix'], shap: -0.15 - 0.1 },
    { lead: 'darshan_min_file_not_aligned_posix', alike: [], shap: 0.05 },
  ]);
});

test('a row beyond the data: the extrapolating members see it clamped into the training range; its interval widens', async () => {
  const m = await model;
  // two jobs far outside (one farther still), and a training job
  const base = takeRows(jobs(1), [0, 0, 5]);
  const far = makeTable({
    ...base.columns,
    aiio_nprocs: Float64Array.of(2 ** 30, 2 ** 40, (base.columns.aiio_nprocs as Float64Array)[2]),
    aiio_posix_size_write_1k_10k: Float64Array.of(1e12, 1e15, (base.columns.aiio_posix_size_write_1k_10k as Float64Array)[2]),
  });
  const p = predict(m, far);
  assert.deepEqual(p.ood, [true, true, false]);
  // the ensemble's weights stay; no member extrapolates: farther values give the same outputs (clamped to the range)
  for (const w of p.weights) assert.deepEqual(w, m.members.map((mb) => mb.weight));
  for (const mb of p.members) assert.equal(mb.output[0], mb.output[1], `${mb.type} does not extrapolate`);
  assert.equal(p.output[0], p.output[1]);
  const lo = 10 ** Math.min(...m.reference.y) - 1, hi = 10 ** Math.max(...m.reference.y) - 1;
  assert.ok(p.low[0] <= lo * 1.0001 && p.high[0] >= hi * 0.9999, `OOD interval ${p.low[0]}..${p.high[0]} holds every training job's ${lo}..${hi}`);
  // a row inside keeps the conformal interval
  assert.ok(Math.abs(Math.log10(1 + p.high[2]) - p.output[2] - m.ensemble.interval.high) < 1e-9);
  // the explanation is of the same number
  const [e] = explain(m, far, { rows: [0], baseline: 'typical', zeroFeatures: zeroFeatures(m) });
  assert.ok(Math.abs(e.output - p.output[0]) < 1e-9);
  assert.ok(Math.abs(e.base + e.contributions.reduce((s, c) => s + c.shap, 0) - e.output) < 1e-9);
  // every row out when the caller says so (columns the table lacks), without changing the numbers of a row inside
  const all = predict(m, far, { oodAll: ['the rows lack 1 of the model\'s columns'] });
  assert.deepEqual(all.ood, [true, true, true]);
  assert.equal(all.oodReasons[2][0], "the rows lack 1 of the model's columns");
  assert.equal(all.output[2], p.output[2]);
});
