import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cFixed, cF6, cCtimeUtc, cFixedWidth } from './cfmt.js';

test('cF6 matches glibc %f on ties, large values, signs and specials', () => {
  const cases: [number, string][] = [
    [0.0078125, '0.007812'],
    [0.0234375, '0.023438'],
    [1e22, '10000000000000000000000.000000'],
    [-1e-9, '-0.000000'],
    [-0, '-0.000000'],
    [0, '0.000000'],
    [-1, '-1.000000'],
    [1.5, '1.500000'],
    [5406.772801, '5406.772801'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
    [2 ** 60, '1152921504606846976.000000'],
    [0.1, '0.100000'],
  ];
  for (const [x, want] of cases) assert.equal(cF6(x), want, `cF6(${x})`);
});

test('cFixed with 4 digits rounds ties to even', () => {
  assert.equal(cFixed(0.03125, 4), '0.0312');
  assert.equal(cFixed(0.09375, 4), '0.0938');
  assert.equal(cFixed(12, 4), '12.0000');
  assert.equal(cFixedWidth(0.3091, 12, 4), '      0.3091');
});

test('cCtimeUtc formats like ctime in UTC', () => {
  assert.equal(cCtimeUtc(1795349707n), 'Sun Nov 22 12:15:07 2026\n');
  assert.equal(cCtimeUtc(0n), 'Thu Jan  1 00:00:00 1970\n');
  assert.equal(cCtimeUtc(-1n), 'Wed Dec 31 23:59:59 1969\n');
  assert.equal(cCtimeUtc(1629532919n), 'Sat Aug 21 08:01:59 2021\n');
  assert.equal(cCtimeUtc(4427712942739450220n), '(null)');
});
