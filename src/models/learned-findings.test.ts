import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { LearnedSection } from '../contract/index.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { withLearned } from './learned.js';

// The model's findings (L01, L02) on the bundled sample's real report, from a learned section built by hand: the
// seconds the time model bounds, the level rule, the OOD and baseline gates (src/models/learned-findings.ts).

const report = diagnoseLog(join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan'));

function section(over: Partial<LearnedSection> = {}): LearnedSection {
  return {
    model: { file: 'm.json', table: 'jobs', target: 'io_mibs', unit: 'MiB/s', members: ['gbdt'], best: 'gbdt', rows: 500, timeSpan: null, validation: { rmse: 0.2, r2: 0.8, medianErrorFactor: 1.3 } },
    predicted: 100,
    low: 40,
    high: 250,
    measured: 10,
    ood: false,
    oodReasons: [],
    baseline: 'typical',
    base: 2,
    output: Math.log10(101),
    contributors: [{ feature: 'h5d_writes', value: 1024, shap: -0.5, factor: 10 ** 0.5, text: 'H5D write operations (h5d_writes = 1,024) cost ×3.2 of throughput', problems: ['small-writes'] }],
    corroborated: [{ problem: 'small-writes', findings: ['D10'], features: ['h5d_writes'], shap: -0.5 }],
    modelOnly: [{ problem: 'rw-switches', findings: [], features: ['aiio_posix_rw_switches'], shap: -0.2 }],
    findingsOnly: [],
    summary: 'The model expected 100 MiB/s (40 MiB/s to 250 MiB/s); the job measured 10 MiB/s, ×9.2 slower than expected.',
    ...over,
  };
}

test('L01 costs the time the job lost against the expected rate; L02 never claims more than the check measured', () => {
  const r = withLearned(report, section());
  const model = r.insights.filter((i) => i.source === 'model');
  assert.deepEqual(model.map((i) => i.code).sort(), ['L01', 'L02', 'L02']);
  const l01 = model.find((i) => i.code === 'L01')!;
  // slower than the interval: ioTime × (1 − (1 + 10)/(1 + 100)) of the slowest rank's I/O time
  assert.ok(Math.abs(l01.cost!.seconds - report.io.ioTime * (1 - 11 / 101)) < 1e-12);
  assert.equal(l01.cost!.semantics, 'slowest');
  const d10 = report.insights.find((i) => i.code === 'D10')!;
  const small = model.find((i) => i.problem === 'small-writes')!;
  // the model's (1 − 10^−0.5) of the summed I/O time is far more than D10 measured: bounded by it, in its semantics
  assert.ok(report.io.cumulativeIoTime * (1 - 10 ** -0.5) > d10.cost!.seconds);
  assert.deepEqual([small.cost!.seconds, small.cost!.semantics, small.cost!.basis], [d10.cost!.seconds, d10.cost!.semantics, d10.cost!.basis]);
  assert.deepEqual(small.recommendations, d10.recommendations);
  const rw = model.find((i) => i.problem === 'rw-switches')!;
  assert.equal(rw.cost!.basis, 'bound');
  assert.ok(Math.abs(rw.cost!.seconds - report.io.ioTime * (1 - 10 ** -0.2)) < 1e-12);
  for (const f of model) assert.notEqual(f.level, 'HIGH');
  // the checks' findings are untouched, and the summary counts all
  assert.deepEqual(r.insights.filter((i) => i.source !== 'model'), report.insights);
  assert.equal(r.summary.high + r.summary.warn + r.summary.ok + r.summary.info, r.insights.length);
  // adding the section twice does not add the findings twice
  assert.equal(withLearned(r, section()).insights.length, r.insights.length);
});

test('an out-of-distribution job gets INFO only; a model no better than the median gets L01 alone', () => {
  const ood = withLearned(report, section({ ood: true, oodReasons: ['unseen category in app'] })).insights.filter((i) => i.source === 'model');
  assert.ok(ood.every((i) => i.level === 'INFO'));
  assert.ok(ood.every((i) => i.caveats!.some((c) => c.includes('unseen category in app'))));
  const gated = withLearned(report, section({ notUsed: 'the model does not predict better than the median…', contributors: [], corroborated: [], modelOnly: [] })).insights.filter((i) => i.source === 'model');
  assert.deepEqual(gated.map((i) => [i.code, i.level]), [['L01', 'INFO']]);
  // a job within its interval: INFO, no cost
  const fine = withLearned(report, section({ measured: 90 })).insights.find((i) => i.code === 'L01')!;
  assert.deepEqual([fine.level, fine.cost], ['INFO', undefined]);
});
