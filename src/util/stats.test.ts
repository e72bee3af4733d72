import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pearson, quantileSorted } from './stats.js';

test('quantiles interpolate between order statistics (numpy\'s default)', () => {
  const s = [1, 2, 3, 4];
  assert.equal(quantileSorted(s, 0.5), 2.5);
  assert.equal(quantileSorted(Float64Array.of(1, 2, 3, 4), 0.5), 2.5);
  assert.equal(quantileSorted(s, 0.25), 1.75);
  assert.equal(quantileSorted(s, 0.75), 3.25);
  assert.equal(quantileSorted([7], 0.25), 7);
  assert.ok(Number.isNaN(quantileSorted([], 0.5)));
});

test('Pearson correlation: ±1 on lines, 0 without variation or with fewer than two values', () => {
  assert.equal(pearson([1, 2, 3], [2, 4, 6]), 1);
  assert.equal(pearson([1, 2, 3], [3, 2, 1]), -1);
  assert.equal(pearson([1, 2, 3], [5, 5, 5]), 0);
  assert.equal(pearson([1], [2]), 0);
  // x = 1..4, y = 1, 3, 2, 4: Σdxdy = 4, Σdx² = Σdy² = 5 → 0.8
  assert.ok(Math.abs(pearson([1, 2, 3, 4], [1, 3, 2, 4]) - 0.8) < 1e-12);
});
