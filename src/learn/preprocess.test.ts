import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encode, fitPreprocessor, invertTransform, slog, standardize } from './preprocess.js';
import { makeTable } from './table.js';

test('slog is sign(x)·log10(1+|x|) and inverts', () => {
  assert.equal(slog(0), 0);
  assert.equal(slog(9), 1);
  assert.equal(slog(-99), -2);
  assert.equal(slog(999), 3);
  for (const x of [0, 1, 12.5, -7, 1e12]) assert.ok(Math.abs(invertTransform('slog', slog(x)) - x) <= 1e-9 * Math.max(1, Math.abs(x)));
});

test('categorical features: one-hot, rare values pooled into "other", unseen values flagged', () => {
  const app = [...Array(12).fill('ior'), ...Array(10).fill('hacc'), 'vpic', 'dbscan', null, ''];
  const n = app.length;
  const table = makeTable({ app, bytes: Float64Array.from({ length: n }, (_, i) => (i === 3 ? NaN : i * 10)) });
  const pre = fitPreprocessor(table, [
    { name: 'bytes', kind: 'numeric' },
    { name: 'app', kind: 'categorical', minCount: 10 },
  ]);
  assert.deepEqual(pre.columns, ['bytes', 'app=hacc', 'app=ior', 'app=(other)']);
  assert.deepEqual(pre.columnFeature, [0, 1, 1, 1]);
  const f = pre.features[1];
  assert.ok(f.kind === 'categorical');
  assert.equal(f.otherRows, 4);
  const enc = encode(pre, makeTable({ app: ['ior', 'hacc', 'vpic', 'lammps', null], bytes: Float64Array.of(0, 9, NaN, 99, -9) }));
  assert.deepEqual(Array.from(enc.matrix.data), [0, 0, 1, 0, 1, 1, 0, 0, NaN, 0, 0, 1, 2, 0, 0, 1, -1, 0, 0, 1]);
  assert.deepEqual(enc.unseen, [null, null, ['app'], ['app'], ['app']]);
  // Column statistics in model space: bytes → slog, NaN ignored; one-hot means are frequencies.
  const s = pre.stats[2];
  assert.equal(s.mean, 12 / 26);
  assert.ok(Math.abs(pre.stats[0].missing - 1 / 26) < 1e-15);
  const z = standardize(pre, enc.matrix);
  assert.equal(z.data[8], 0, 'a missing value standardises to the mean');
});

test('categorical features keep at most maxCategories one-hot columns, most frequent first', () => {
  const v = ['a', 'a', 'a', 'b', 'b', 'c', 'c', 'c', 'c', 'd'];
  const pre = fitPreprocessor(makeTable({ v }), [{ name: 'v', kind: 'categorical', minCount: 1, maxCategories: 2 }]);
  assert.deepEqual(pre.columns, ['v=a', 'v=c', 'v=(other)']);
});

test('bad feature lists fail with one line', () => {
  const table = makeTable({ x: Float64Array.of(1, 2), s: ['a', 'b'] });
  assert.throws(() => fitPreprocessor(table, []), /no features/);
  assert.throws(() => fitPreprocessor(table, [{ name: 'y', kind: 'numeric' }]), /no column y/);
  assert.throws(() => fitPreprocessor(table, [{ name: 's', kind: 'numeric' }]), /not numeric/);
  assert.throws(() => fitPreprocessor(table, [{ name: 'x', kind: 'numeric' }, { name: 'x', kind: 'numeric' }]), /twice/);
  assert.throws(() => makeTable({ x: Float64Array.of(1), s: ['a', 'b'] }), /has 2 rows, expected 1/);
});
