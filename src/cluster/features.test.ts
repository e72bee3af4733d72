import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  columnSummary,
  oneSplitRule,
  robustScaling,
  robustStandardize,
  signedLog10,
  signedLog10Matrix,
} from './features.js';

test('signedLog10 keeps 0 and the sign', () => {
  assert.equal(signedLog10(0), 0);
  assert.equal(signedLog10(9), 1);
  assert.equal(signedLog10(-9), -1);
  assert.equal(signedLog10(999), 3);
  assert.equal(signedLog10(-99999), -5);
  assert.deepEqual(Array.from(signedLog10Matrix(Float64Array.from([0, 9, -99]))), [0, 1, -2]);
});

test('robust scaling: median and IQR, standard deviation when the IQR is 0, 1 for a constant column', () => {
  // column 0: 1..5 → median 3, IQR 4 − 2 = 2
  // column 1: 0,0,0,0,10 → median 0, IQR 0, mean 2, population sd sqrt((4·4 + 64)/5) = 4
  // column 2: constant 7 → scale 1
  const x = Float64Array.from([1, 0, 7, 2, 0, 7, 3, 0, 7, 4, 0, 7, 5, 10, 7]);
  const s = robustScaling(x, 5, 3);
  assert.deepEqual(Array.from(s.center), [3, 0, 7]);
  assert.deepEqual(Array.from(s.scale), [2, 4, 1]);
  assert.deepEqual(s.scaleKind, ['iqr', 'std', 'none']);
  assert.deepEqual(Array.from(robustStandardize(x, 5, 3)), [-1, 0, 0, -0.5, 0, 0, 0, 0, 0, 0.5, 0, 0, 1, 2.5, 0]);
});

test('column summary over a subset of rows', () => {
  const x = Float64Array.from([1, 10, 2, 20, 3, 30, 4, 40, 100, 1000]);
  const s = columnSummary(x, 2, [0, 1, 2, 3]);
  assert.deepEqual(Array.from(s.median), [2.5, 25]);
  assert.deepEqual(Array.from(s.q1), [1.75, 17.5]);
  assert.deepEqual(Array.from(s.q3), [3.25, 32.5]);
  assert.deepEqual(Array.from(s.iqr), [1.5, 15]);
});

test('one-split rule: the column and cut with the best balanced accuracy', () => {
  // Column 0 (bytes per op) separates 4 of 5 node rows (≤ 4096) from 4 of 5 sibling rows (> 4096): BA 0.8.
  // Column 1 separates perfectly but in the other direction: the node's values are the large ones (> 5).
  const node = [
    [512, 9],
    [1024, 8],
    [4096, 7],
    [4096, 9],
    [65536, 6],
  ];
  const sib = [
    [1024, 1],
    [8192, 2],
    [65536, 3],
    [65536, 5],
    [1048576, 4],
  ];
  const x = Float64Array.from([...node, ...sib].flat());
  const rows = [0, 1, 2, 3, 4];
  const sibRows = [5, 6, 7, 8, 9];
  assert.deepEqual(oneSplitRule(x, 2, rows, sibRows), {
    feature: 1,
    threshold: 5,
    direction: '>',
    shareInNode: 1,
    shareInSibling: 0,
    balancedAccuracy: 1,
  });
  assert.deepEqual(oneSplitRule(x, 2, rows, sibRows, [0]), {
    feature: 0,
    threshold: 4096,
    direction: '<=',
    shareInNode: 0.8,
    shareInSibling: 0.2,
    balancedAccuracy: 0.8,
  });
  // Unequal sizes: balanced accuracy weighs both sides equally. Node 2 rows both ≤ 1; sibling 4 rows, one ≤ 1.
  const y = Float64Array.from([1, 0, 1, 2, 3, 4]);
  assert.deepEqual(oneSplitRule(y, 1, [0, 1], [2, 3, 4, 5]), {
    feature: 0,
    threshold: 1,
    direction: '<=',
    shareInNode: 1,
    shareInSibling: 0.25,
    balancedAccuracy: 0.875,
  });
  // Nothing to separate: constant column, or an empty side.
  assert.equal(oneSplitRule(Float64Array.from([3, 3, 3]), 1, [0], [1, 2]), null);
  assert.equal(oneSplitRule(y, 1, [], [1]), null);
});
