import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCount } from './format.js';

test('formatCount prints what toLocaleString("en-US") prints, for every magnitude and sign', () => {
  const values = [0, -0, 0.4, -0.4, 0.5, -0.5, 1, 12, 123, 999, 1000, 1001, 9999.5, 12345, 123456, 1234567, -1234567, 999999.6, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, -1e22, Infinity, -Infinity, NaN];
  for (let d = 1; d <= 16; d++) values.push(Number('9'.repeat(d)), Number('1' + '0'.repeat(d - 1)), -Number('5'.repeat(d)));
  for (const v of values) assert.equal(formatCount(v), Math.round(v).toLocaleString('en-US'), String(v));
  assert.equal(formatCount(1234567.49), '1,234,567');
  assert.equal(formatCount(-0.2), '-0');
});
