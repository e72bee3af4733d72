import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explain, takeRows, train, type FeatureSpec, type Table } from '../learn/index.js';
import { predictModel } from '../learn/models.js';
import { encode } from '../learn/preprocess.js';
import { referenceRow } from '../learn/reference.js';
import { bruteShapley } from '../learn/testing/brute-shapley.js';
import { readTokio, TOKIO_CORI, TOKIO_TARGET, tokioSplit } from '../learn/testing/tokio.js';
import { blameLines, deriveRoles, referenceChoice } from './reference.js';

// Issue 53, item 1, on real TOKIO-ABC rows: counters against none (a zero-valued counter gets exactly 0), settings
// and context against their typical value, what the model does not know never blamed, grouped lines never hiding a
// member of the other sign, and every feature's value (the categoricals' too) exact against brute-force Shapley
// values at the feature level.

const raw = readTokio(TOKIO_CORI);
// the application's name (the basename of darshan_app, a path the leak guard drops): five values
const tokio: Table = { nRows: raw.nRows, columns: { ...raw.columns, app: (raw.columns.darshan_app as (string | null)[]).map((p) => (p === null ? null : p.slice(p.lastIndexOf('/') + 1))) } };
const split = tokioSplit(tokio);

const NUMERIC = [
  'darshan_tot_bytes_written_posix',
  'darshan_max_bytes_written_posix',
  'darshan_tot_bytes_read_posix',
  'darshan_tot_writes_posix',
  'darshan_tot_opens_posix',
  'darshan_nprocs',
  'darshan_tot_file_not_aligned_posix',
  'fs_ave_oss_cpu',
  'jobsdb_concurrent_jobs',
];
const FEATURES: FeatureSpec[] = [
  ...NUMERIC.map((name): FeatureSpec => ({ name, kind: 'numeric', transform: 'slog' })),
  { name: '_file_system', kind: 'categorical', minCount: 10 },
  { name: 'darshan_biggest_write_api', kind: 'categorical', minCount: 10 },
  // three values (posix, stdio, lustre): a job's and the typical one differ in two one-hot columns a tree can split
  // on one after the other, where per-column values summed are not the feature's Shapley value
  { name: 'darshan_biggest_read_api', kind: 'categorical', minCount: 10 },
  { name: 'app', kind: 'categorical', minCount: 10 },
];

// every 3rd training row: small enough for a shared machine, real values
const fit: Table = takeRows(tokio, split.train.filter((_, i) => i % 3 === 0));
const held: Table = takeRows(tokio, split.test.filter((_, i) => i % 40 === 0));
const model = train(fit, { target: TOKIO_TARGET, features: FEATURES, models: ['gbdt', 'ridge', 'poly2', 'mlp'], seed: 5, parallel: false, overrides: { mlp: { maxEpochs: 20 } } });

test('TOKIO: each column has a role from its name and kind, and a reference from the training data', async () => {
  const m = await model;
  const roles = Object.fromEntries(deriveRoles(m).map((r) => [r.feature, `${r.role}/${r.reference}`]));
  assert.deepEqual(roles, {
    darshan_tot_bytes_written_posix: 'counter/zero',
    darshan_max_bytes_written_posix: 'counter/zero',
    darshan_tot_bytes_read_posix: 'counter/zero',
    darshan_tot_writes_posix: 'counter/zero',
    // every TOKIO job opens files: 0 is no job of the data, so more opens are weighed against the typical job
    darshan_tot_opens_posix: 'counter/typical',
    darshan_nprocs: 'context/typical',
    darshan_tot_file_not_aligned_posix: 'counter/zero',
    fs_ave_oss_cpu: 'context/typical',
    jobsdb_concurrent_jobs: 'context/typical',
    _file_system: 'context/typical',
    darshan_biggest_write_api: 'context/typical',
    darshan_biggest_read_api: 'context/typical',
    app: 'context/typical',
  });
});

test('TOKIO: zero counters and unknown values get exactly 0, lines keep one sign, values exact per feature (brute force)', async () => {
  const m = await model;
  const choice = referenceChoice(m);
  const rows = Array.from({ length: held.nRows }, (_, i) => i);
  const ex = explain(m, held, { rows, baseline: 'typical', ...choice, ood: false });
  const enc = encode(m.preprocessor, held);
  const nCols = m.preprocessor.columns.length;
  const nF = m.preprocessor.features.length;
  let zeroCounters = 0;
  let unknown = 0;
  let worst = 0;
  for (const e of ex) {
    const shap = Object.fromEntries(e.contributions.map((c) => [c.feature, c.shap]));
    for (const name of NUMERIC) {
      const v = (held.columns[name] as Float64Array)[e.row];
      if (v === 0 && choice.counters[m.preprocessor.features.findIndex((f) => f.name === name)]) {
        zeroCounters++;
        assert.equal(shap[name], 0, `row ${e.row}: ${name} = 0 is no cause`);
      }
      if (Number.isNaN(v)) {
        unknown++;
        assert.equal(shap[name], 0, `row ${e.row}: ${name} unknown is no cause`);
      }
    }
    if ((held.columns._file_system as (string | null)[])[e.row] === null) assert.equal(shap._file_system, 0, 'a missing category is no cause');
    // no line sums members of opposite sign
    for (const l of blameLines(m, e.contributions)) for (const f of [l.feature, ...l.alike]) assert.equal(Math.sign(shap[f]), Math.sign(l.shap), `${l.feature}: ${f}`);
    // brute force over the input features: v(S) = Σ_i w_i f_i(x on S's columns, reference elsewhere)
    const x = enc.matrix.data.subarray(e.row * nCols, (e.row + 1) * nCols);
    const ref = referenceRow(m, Float64Array.from(x), choice);
    const want = bruteShapley(nF, (mask) => {
      const row = Float64Array.from(ref);
      for (let c = 0; c < nCols; c++) if (mask & (1 << m.preprocessor.columnFeature[c])) row[c] = x[c];
      const one = { nRows: 1, nCols, data: row };
      return m.members.reduce((s, mb) => s + mb.weight * predictModel(mb.model, one)[0], 0);
    });
    m.preprocessor.features.forEach((f, i) => (worst = Math.max(worst, Math.abs(shap[f.name] - want[i]))));
  }
  assert.ok(worst < 1e-9, `largest difference from brute-force Shapley values per feature: ${worst}`);
  assert.ok(zeroCounters >= 20 && unknown >= 5, `zero counters ${zeroCounters}, unknown values ${unknown}: the rows exercise both`);
});
