import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanBytes, pyFixed, pyFloat, renderTemplate } from './template.js';

test('pyFixed rounds like Python format (ties to even on exact binary halves)', () => {
  assert.equal(pyFixed(0.125, 2), '0.12');
  assert.equal(pyFixed(0.375, 2), '0.38');
  assert.equal(pyFixed(99.72591031667674, 2), '99.73');
  assert.equal(pyFixed(100, 2), '100.00');
  assert.equal(pyFixed(2.675, 2), '2.67'); // 2.675 is 2.67499999… in binary
});

test('pyFloat prints like Python str(float)', () => {
  assert.equal(pyFloat(100), '100.0');
  assert.equal(pyFloat(66.66666666666667), '66.66666666666667');
  assert.equal(pyFloat(1e-7), '1e-07');
});

test('humanBytes uses 1024-based units with up to two decimals', () => {
  assert.equal(humanBytes(512), '512 bytes');
  assert.equal(humanBytes(18318336), '17.47 MB');
  assert.equal(humanBytes(1024), '1.0 KB');
});

test('renderTemplate fills placeholders and rejects missing data', () => {
  assert.equal(renderTemplate('{n} ({r:pct}) to "{file}"', { n: 3, r: 0.5, file: 'a' }), '3 (50.00%) to "a"');
  assert.throws(() => renderTemplate('{missing}', {}), /missing/);
});

test('renderTemplate: a template rendered again with other data (its split is kept) prints that data', () => {
  const t = '{a} then {b:bytes}{a}, literal {not a placeholder';
  assert.equal(renderTemplate(t, { a: 1, b: 1024 }, 'iec'), '1 then 1.00 KiB1, literal {not a placeholder');
  assert.equal(renderTemplate(t, { a: 'x', b: 2 }, 'drishti'), 'x then 2 bytesx, literal {not a placeholder');
  assert.throws(() => renderTemplate(t, { a: 1 }), /\{b\} has no value/);
});
