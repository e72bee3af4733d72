import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conformalInterval } from './train.js';
import { Rng } from './rng.js';

// The prediction interval is split-conformal (issue 42, "intervals calibrated on held-out time with stated coverage").

test('conformal bounds are the order statistics ⌊(n+1)·5 %⌋ and ⌈(n+1)·95 %⌉', () => {
  const r = (n: number) => Float64Array.from({ length: n }, (_, i) => i + 1);
  assert.deepEqual(conformalInterval(r(99), 0.9), { low: 5, high: 95, coverage: 0.9, rows: 99 });
  assert.deepEqual(conformalInterval(r(1293), 0.9), { low: 64, high: 1230, coverage: 0.9, rows: 1293 });
  // too few rows for an order statistic: the extremes
  assert.deepEqual(conformalInterval(r(10), 0.9), { low: 1, high: 10, coverage: 0.9, rows: 10 });
  assert.deepEqual(conformalInterval(new Float64Array(0), 0.9), { low: 0, high: 0, coverage: 0.9, rows: 0 });
});

test('on exchangeable residuals the interval covers at least its nominal share of new ones', () => {
  const g = new Rng(11);
  let covered = 0, total = 0;
  for (let trial = 0; trial < 40; trial++) {
    const cal = Float64Array.from({ length: 200 }, () => g.normal() * 0.2).sort();
    const { low, high } = conformalInterval(cal, 0.9);
    for (let i = 0; i < 500; i++) {
      const e = g.normal() * 0.2;
      covered += e >= low && e <= high ? 1 : 0;
      total++;
    }
  }
  const share = covered / total;
  assert.ok(share >= 0.9 && share <= 0.93, String(share));
});
