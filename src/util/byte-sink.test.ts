import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteSink } from './byte-sink.js';
import { cFixedWidth, padStart } from './cfmt.js';

function sinkText(write: (s: ByteSink) => void): string {
  const s = new ByteSink(null, 64);
  write(s);
  return s.text();
}

// A seeded generator of doubles over every magnitude, with the awkward ones (ties, near-ties, zeros, huge) mixed in.
function* doubles(n: number): Generator<number> {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const special = [0, -0, 1, -1, 0.5, -0.5, 0.00005, 0.00015, 0.00025, -0.00005, 1.00005, 2.5e-7, 1e-10, 123456.78905, 9.99995, 0.99995, 2 ** 43, 2 ** 43 / 1e4, 2 ** 53, 1e21, 1e300, -1e22, Infinity, -Infinity, NaN, 5e-324, 4503599627370495.5, 0.1, 0.2, 0.3];
  yield* special;
  for (let i = 0; i < n; i++) {
    const mag = 10 ** (Math.floor(rand() * 30) - 12);
    const v = (rand() - 0.3) * mag;
    yield v;
    // values exactly on a tie or one unit off at 4 and 6 digits
    const t4 = (Math.round(v * 1e4) + 0.5) / 1e4;
    yield t4;
    yield (Math.round(v * 1e6) + 0.5) / 1e6;
    yield Math.round(v * 2 ** 20) / 2 ** 20;
  }
}

test('fixedPad prints what C printf("%W.Df") prints (cFixed), for every magnitude, sign and tie', () => {
  for (const x of doubles(20000)) {
    for (const [w, d] of [[12, 4], [0, 6], [10, 0], [3, 9]] as const) {
      assert.equal(sinkText((s) => s.fixedPad(x, w, d)), cFixedWidth(x, w, d), `${x} %${w}.${d}f`);
    }
  }
});

test('intPad and textPad right-align as C %Wd / %Ws', () => {
  const ints = [0, 1, -1, 9, 10, 99, 100, -100, 123456789, 2 ** 31, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 0.5];
  for (let k = 0; k < 16; k++) ints.push(10 ** k, 10 ** k - 1, -(10 ** k));
  // around 8-digit group boundaries up to 2^53, where v / 1e8 rounds up to the next whole number
  for (const k of [1, 99, 12345678, 90071992, 89999999]) for (const d of [-1, 0, 1]) ints.push(k * 1e8 + d, k * 1e16 + d);
  for (const v of ints) for (const w of [0, 4, 9, 16, 20]) assert.equal(sinkText((s) => s.intPad(v, w)), padStart(String(v), w), `${v} %${w}d`);
  // random safe integers of every length
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 100000; i++) {
    const v = Math.floor(rand() * 10 ** (1 + (i % 16))) * (i % 3 === 0 ? -1 : 1);
    if (!Number.isSafeInteger(v)) continue;
    assert.equal(sinkText((s) => s.intPad(v, 12)), padStart(String(v), 12), `${v}`);
  }
  assert.equal(sinkText((s) => s.textPad('abc', 6)), '   abc');
  assert.equal(sinkText((s) => s.textPad('abcdefg', 3)), 'abcdefg');
});

test('a sink without a descriptor keeps everything, across buffer refills', () => {
  const s = new ByteSink(null, 16);
  let want = '';
  for (let i = 0; i < 1000; i++) {
    s.write(`line ${i}\t`);
    s.intPad(i * 7919, 9);
    s.write('\n');
    want += `line ${i}\t${padStart(String(i * 7919), 9)}\n`;
  }
  assert.equal(s.text(), want);
});
