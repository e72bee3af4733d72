import { test } from 'node:test';
import assert from 'node:assert/strict';
import { medianInPlace, pearson, quantileSorted } from './stats.js';
import { rng } from './random.js';

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

test('medianInPlace is the sorted middle on random, tied, sorted, reversed and NaN-holding arrays', () => {
  const next = rng(7);
  const sortedMedian = (a: Float64Array) => {
    const s = Float64Array.from(a).sort();
    const n = s.length;
    return n % 2 ? s[n >> 1] : (s[(n >> 1) - 1] + s[n >> 1]) / 2;
  };
  let cases = 0;
  for (let n = 1; n <= 60; n++) {
    for (const kind of ['random', 'ties', 'sorted', 'reversed', 'nan'] as const) {
      const a = new Float64Array(n + 3);
      for (let i = 0; i < n; i++) a[i] = kind === 'ties' ? Math.floor(next() * 3) : kind === 'sorted' ? i : kind === 'reversed' ? n - i : next();
      if (kind === 'nan') a[Math.floor(next() * n)] = NaN;
      a.fill(-1, n); // beyond n: not part of the input
      const want = sortedMedian(a.subarray(0, n));
      const got = medianInPlace(a, n);
      assert.ok(Object.is(got, want), `${kind} n=${n}: ${got} vs ${want}`);
      cases++;
    }
  }
  assert.equal(cases, 300);
  assert.ok(Number.isNaN(medianInPlace(new Float64Array(0), 0)));
});
