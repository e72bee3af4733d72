import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validationSplit } from './split.js';
import { makeTable } from './table.js';
import { baselineMetrics, logMetrics } from './metrics.js';

test('time split: the most recent 20 % by the time column (ties by row, missing first); random split seeded', () => {
  const t = makeTable({ t: Float64Array.of(5, 1, 9, NaN, 3, 9, 7, 2, 8, 6), s: ['e', 'a', 'i', null, 'c', 'i', 'g', 'b', 'h', 'f'] });
  const s = validationSplit(t, { timeColumn: 't' });
  assert.deepEqual(Array.from(s.valid), [2, 5]);
  assert.equal(s.method, 'time');
  assert.deepEqual(Array.from(validationSplit(t, { timeColumn: 's', fraction: 0.3 }).valid), [2, 5, 8]);
  const r1 = validationSplit(t, { seed: 4 });
  assert.equal(r1.method, 'random');
  assert.deepEqual(validationSplit(t, { seed: 4 }), r1);
  assert.equal(r1.valid.length, 2);
  assert.equal(new Set([...r1.fit, ...r1.valid]).size, 10);
  assert.deepEqual(Array.from(validationSplit(t, { timeColumn: 't', rows: [0, 1, 2, 3, 4] }).valid), [2]);
  assert.throws(() => validationSplit(t, { timeColumn: 'nope' }), /no time column/);
  assert.throws(() => validationSplit(makeTable({ t: Float64Array.of(1) }), {}), /too few rows/);
});

test('metrics in log space: RMSE, R², error factors, and the median baseline', () => {
  const truth = Float64Array.of(1, 2, 3, 4);
  const pred = Float64Array.of(1, 2, 3, 5);
  const m = logMetrics(truth, pred);
  assert.equal(m.rmse, 0.5);
  assert.equal(m.r2, 1 - 1 / 5);
  assert.equal(m.medianErrorFactor, 1);
  assert.equal(m.meanErrorFactor, (3 + 10) / 4);
  const b = baselineMetrics(Float64Array.of(0, 2, 10), truth);
  assert.equal(b.rmse, Math.sqrt((1 + 0 + 1 + 4) / 4));
});
