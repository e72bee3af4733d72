import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LearnInputError } from './errors.js';
import { parseModel, serializeModel } from './model-file.js';
import { MODEL_KINDS } from './models.js';
import { explain, predict } from './predict.js';
import { CAUSES, SYNTHETIC_FEATURES, syntheticJobs } from './testing/synthetic.js';
import { train, type TrainOptions } from './train.js';
import { takeRows } from './table.js';

const OPTIONS: TrainOptions = {
  target: 'throughput',
  features: SYNTHETIC_FEATURES,
  timeColumn: 'start',
  seed: 7,
  overrides: { mlp: { maxEpochs: 40, patience: 6 }, forest: { nTrees: 40, selectionTrees: 20 } },
};

const data = syntheticJobs(1500, 1);
const trainRows = Int32Array.from({ length: 1200 }, (_, i) => i);
const testRows = Int32Array.from({ length: 300 }, (_, i) => 1200 + i);
const trainTable = takeRows(data.table, trainRows);
const testTable = takeRows(data.table, testRows);
const trained = train(trainTable, OPTIONS);

test('train: every family is fitted, weighted by validation error, and the file round-trips byte for byte', async () => {
  const model = await trained;
  assert.deepEqual(
    model.members.map((m) => m.model.type),
    [...MODEL_KINDS],
  );
  const w = model.members.map((m) => m.weight);
  assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  // w ∝ 1/RMSE²: the ratio of two weights is the inverse ratio of squared validation errors.
  const [a, b] = model.members;
  assert.ok(Math.abs(a.weight / b.weight - (b.validation.rmse / a.validation.rmse) ** 2) < 1e-9);
  assert.equal(model.card.rows, 1200);
  assert.equal(model.card.fitRows + model.card.validationRows, 1200);
  assert.equal(model.card.validation, 'time');
  assert.deepEqual(model.card.timeSpan, { from: 1.5e9, to: 1.5e9 + 1199 * 60 });
  const text = serializeModel(model);
  const loaded = parseModel(text);
  assert.equal(serializeModel(loaded), text);
  const p1 = predict(model, testTable);
  const p2 = predict(loaded, testTable);
  assert.deepEqual(p2.output, p1.output);
  assert.deepEqual(p2.ood, p1.ood);
  // The ensemble is good on later rows and better than predicting the median.
  const truth = Float64Array.from(testTable.columns.throughput as Float64Array, (v) => Math.log10(1 + v));
  let sse = 0;
  let sst = 0;
  const mean = truth.reduce((s, v) => s + v, 0) / truth.length;
  for (let i = 0; i < truth.length; i++) {
    sse += (p1.output[i] - truth[i]) ** 2;
    sst += (truth[i] - mean) ** 2;
  }
  assert.ok(1 - sse / sst > 0.9, `ensemble R² ${1 - sse / sst}`);
  for (let i = 0; i < truth.length; i++) {
    assert.ok(p1.low[i] <= p1.prediction[i] && p1.prediction[i] <= p1.high[i]);
    assert.equal(p1.prediction[i], 10 ** p1.output[i] - 1);
  }
});

test('train: the same seed gives a byte-identical model file', async () => {
  const again = await train(trainTable, OPTIONS);
  assert.equal(serializeModel(again), serializeModel(await trained));
});

test('explain: additivity on every row, zero counters get exactly zero, the injected cause is the top negative contributor', async () => {
  const model = await trained;
  const ex = explain(model, testTable, { kernel: { samples: 512 } });
  let withCause = 0;
  let found = 0;
  for (const e of ex) {
    const sum = e.contributions.reduce((s, c) => s + c.shap, 0);
    assert.ok(Math.abs(e.base + sum - e.output) < 1e-9, `row ${e.row}: ${e.base} + ${sum} ≠ ${e.output}`);
    assert.ok(Math.abs(Math.log10(1 + e.prediction) - e.output) < 1e-12);
    for (const c of e.contributions) if (c.value === 0) assert.equal(c.shap, 0, `${c.feature} is 0 on row ${e.row} but blamed`);
    // The merged base is the weighted sum of the members' bases.
    const mergedBase = e.members.reduce((acc, m) => acc + (m.weight ? m.weight * m.base : 0), 0);
    assert.ok(Math.abs(mergedBase - e.base) < 1e-12);
    const cause = data.cause[1200 + e.row];
    if (cause) {
      withCause++;
      const worst = e.contributions.reduce((a, b) => (b.shap < a.shap ? b : a));
      if (worst.feature === cause) found++;
    }
  }
  assert.ok(withCause > 150);
  assert.ok(found / withCause >= 0.9, `cause found on ${found} of ${withCause} rows`);
  // The ensemble's merged output is predict's output.
  const p = predict(model, testTable, { ood: false });
  ex.forEach((e, i) => assert.ok(Math.abs(e.output - p.output[i]) < 1e-9));
  // Every cause occurs among the explained rows.
  for (const c of CAUSES) assert.ok(ex.some((e) => data.cause[1200 + e.row] === c));
});

test('explain: path-dependent baseline and the closest merge keep additivity', async () => {
  const model = await trained;
  const rows = [0, 1, 2, 3];
  const path = explain(model, testTable, { rows, baseline: 'path', kernel: { samples: 256 } });
  const measured = testTable.columns.throughput as Float64Array;
  const closest = explain(model, testTable, { rows, ensemble: 'closest', measured });
  for (const e of [...path, ...closest]) {
    const sum = e.contributions.reduce((s, c) => s + c.shap, 0);
    assert.ok(Math.abs(e.base + sum - e.output) < 1e-9);
  }
  for (const e of closest) {
    const chosen = e.members.filter((m) => m.weight === 1);
    assert.equal(chosen.length, 1);
    // The chosen member is the one nearest to the measured value.
    const target = Math.log10(1 + measured[e.row]);
    const nearest = e.members.reduce((a, b) => (Math.abs(b.output - target) < Math.abs(a.output - target) ? b : a));
    assert.equal(chosen[0].type, nearest.type);
    assert.equal(e.output, chosen[0].output);
  }
});

test('model file: a newer schema and malformed files are refused in one line', async () => {
  const doc = JSON.parse(serializeModel(await trained));
  assert.throws(() => parseModel({ ...doc, schemaVersion: 99 }), (e: Error) => e instanceof LearnInputError && /schema version 99/.test(e.message) && !e.message.includes('\n'));
  assert.throws(() => parseModel('{'), LearnInputError);
  assert.throws(() => parseModel({ ...doc, format: 'x' }), LearnInputError);
  const bad = structuredClone(doc);
  bad.models[0].trees[0].left[0] = 0;
  assert.throws(() => parseModel(bad), /bad children/);
  assert.throws(() => predict(parseModel(doc), { nRows: 1, columns: {} }), /no column/);
});
