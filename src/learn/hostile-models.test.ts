import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LearnInputError } from './errors.js';
import { parseModel, serializeModel } from './model-file.js';
import { explain, predict } from './predict.js';
import { SYNTHETIC_FEATURES, syntheticJobs } from './testing/synthetic.js';
import { LINEAR_COLUMN_BUDGET, train, type TrainOptions } from './train.js';
import { makeTable, takeRows } from './table.js';
import { MAX_TREE_DEPTH } from './tree.js';
import type { FeatureSpec } from './preprocess.js';

/** Model files and training tables an attacker controls (issue 41): refused in one line, or made harmless. */

const OPTIONS: TrainOptions = { target: 'throughput', features: SYNTHETIC_FEATURES, seed: 3, models: ['gbdt', 'ridge'] };
const data = syntheticJobs(300, 2);

test('a non-finite target is dropped with a count, and a non-finite feature is a missing value: the model still predicts', async () => {
  const t = takeRows(data.table, Int32Array.from({ length: 300 }, (_, i) => i));
  const y = t.columns.throughput as Float64Array;
  y[0] = Infinity;
  y[1] = -Infinity;
  (t.columns.noise_a as Float64Array)[2] = Infinity;
  const m = await train(t, OPTIONS);
  assert.equal(m.card.droppedRows, 2);
  assert.equal(m.card.rows, 298);
  const p = predict(m, t);
  for (const v of p.output) assert.ok(Number.isFinite(v));
  // not a model of nulls: predictions follow the target
  assert.ok(new Set(Array.from(p.output, (v) => v.toFixed(6))).size > 10);
  const e = explain(m, t, { rows: [2] })[0];
  assert.equal(e.contributions.find((c) => c.feature === 'noise_a')!.value, null, 'shown as missing');
});

test('a model file with null, NaN-like or missing numbers, or a tree deeper than the limit, is refused in one line', async () => {
  const m = await train(takeRows(data.table, Int32Array.from({ length: 200 }, (_, i) => i)), OPTIONS);
  const doc = JSON.parse(serializeModel(m));
  const gbdt = doc.models.find((x: { type: string }) => x.type === 'gbdt');
  const ridge = doc.models.find((x: { type: string }) => x.type === 'ridge');
  const split = (gbdt.trees[0].feature as number[]).findIndex((f) => f >= 0);
  const cases: [string, (d: typeof doc) => void, RegExp][] = [
    ['null threshold', (d) => (d.models[0].trees[0].threshold[split] = null), /tree node \d+: the threshold must be a number/],
    ['null leaf value', (d) => (d.models[0].trees[0].value[d.models[0].trees[0].feature.indexOf(-1)] = null), /value and cover must be finite numbers/],
    ['string feature', (d) => (d.models[0].trees[0].feature[split] = '0'), /feature and child ids must be whole numbers/],
    ['null base', (d) => (d.models[0].base = null), /base is not a finite number/],
    ['null ridge weight', (d) => (d.models[1].ridge.weights[0] = null), /weights holds a value that is not a finite number/],
    // what the fuzzer's model target found (docs/fuzzing.md): fields missing or of another type failed later, untyped
    ['no prediction interval', (d) => delete d.ensemble.interval, /ensemble malformed/],
    ['reference rows not base64 text', (d) => (d.reference.rows = 5), /reference block malformed/],
    ['a feature without its categories', (d) => delete d.features[d.features.findIndex((f: { kind: string }) => f.kind === 'categorical')].categories, /feature \d+ is malformed/],
    ['an unknown transform', (d) => (d.features[0].transform = 'exp'), /feature 0 has an unknown transform/],
    ['mlp layers without sizes', (d) => d.models.push({ type: 'mlp', weight: 0, validation: {}, yMean: 0, yStd: 1, layers: [{}] }), /mlp malformed/],
  ];
  assert.ok(gbdt && ridge && doc.models[0] === gbdt && doc.models[1] === ridge);
  for (const [name, mutate, why] of cases) {
    const d = JSON.parse(JSON.stringify(doc));
    mutate(d);
    assert.throws(() => parseModel(JSON.stringify(d)), (e: Error) => e instanceof LearnInputError && why.test(e.message) && !e.message.includes('\n'), name);
  }
  // a 200,000-level chain: node i splits, its left child is node i + 1, its right child a leaf after the chain
  const depth = 200_000;
  const n = 2 * depth + 1;
  const tree = { feature: [] as number[], threshold: [] as number[], left: [] as number[], right: [] as number[], value: [] as number[], cover: [] as number[], defaultLeft: [] as number[] };
  for (let i = 0; i < n; i++) {
    const inner = i < depth;
    tree.feature.push(inner ? 0 : -1);
    tree.threshold.push(0);
    tree.left.push(inner ? i + 1 : -1);
    tree.right.push(inner ? depth + 1 + i : -1);
    tree.value.push(inner ? 0 : 1);
    tree.cover.push(1);
    tree.defaultLeft.push(1);
  }
  const deep = JSON.parse(JSON.stringify(doc));
  deep.models[0].trees = [tree];
  assert.throws(() => parseModel(JSON.stringify(deep)), new RegExp(`a tree deeper than ${MAX_TREE_DEPTH} levels`));
});

test(`ridge and poly2 past ${LINEAR_COLUMN_BUDGET} model columns: left out with a reason, or refused when asked for alone`, async () => {
  const n = 60;
  const wide = LINEAR_COLUMN_BUDGET + 50;
  const cols: Record<string, Float64Array> = { y: Float64Array.from({ length: n }, (_, i) => 1 + i) };
  const features: FeatureSpec[] = [];
  for (let c = 0; c < wide; c++) {
    cols[`c${c}`] = Float64Array.from({ length: n }, (_, i) => (i * (c + 3)) % 17);
    features.push({ name: `c${c}`, kind: 'numeric', transform: 'none' });
  }
  const t = makeTable(cols);
  const said: string[] = [];
  const m = await train(t, { target: 'y', features, seed: 1, models: ['gbdt', 'ridge', 'poly2'], onProgress: (l) => said.push(l) });
  assert.deepEqual(m.members.map((x) => x.model.type), ['gbdt']);
  assert.ok(said.some((l) => l.startsWith(`ridge and poly2 left out: ${wide.toLocaleString('en-US')} model columns, above the 2,000`)), said.join('\n'));
  await assert.rejects(train(t, { target: 'y', features, seed: 1, models: ['ridge'] }), (e: Error) => e instanceof LearnInputError && /^ridge: 2,050 model columns, above the 2,000/.test(e.message));
});
