import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { adjustedRandIndex } from './ari.js';

test('adjusted Rand index on hand-checked cases', () => {
  assert.equal(adjustedRandIndex([0, 0, 1, 1], [1, 1, 0, 0]), 1); // same partition, other names
  // [0,0,1,2] vs [0,0,1,1]: Σ C(n_ij,2) = 1, rows 1, columns 2, C(4,2) = 6, expected 1·2/6 = 1/3, max 3/2:
  // (1 − 1/3) / (3/2 − 1/3) = 4/7
  assert.equal(adjustedRandIndex([0, 0, 1, 2], [0, 0, 1, 1]), 4 / 7);
  assert.equal(adjustedRandIndex([0, 0, 0, 0], [0, 1, 2, 3]), 0);
  assert.equal(adjustedRandIndex([0, 1, 2], [5, 6, 7]), 1); // all singletons both
  assert.equal(adjustedRandIndex([3, 3], [4, 4]), 1); // one group both
  assert.equal(adjustedRandIndex([0, 0, 1, 1], [0, 1, 0, 1]), -0.5);
  assert.throws(() => adjustedRandIndex([0], [0, 1]), /differ in length/);
});

test('adjusted Rand index equals scikit-learn on random labelings (fixture from Debian python3-sklearn)', () => {
  const fx = JSON.parse(readFileSync(join(packageRoot(), 'src/cluster/fixtures/sklearn-oracle.json'), 'utf8')) as {
    ari: { a: number[]; b: number[]; ari: number }[];
  };
  assert.equal(fx.ari.length, 24);
  for (const { a, b, ari } of fx.ari) {
    const got = adjustedRandIndex(a, b);
    assert.ok(Math.abs(got - ari) <= 1e-12, `${got} vs ${ari} (n=${a.length})`);
  }
});
