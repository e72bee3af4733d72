import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BusyTime, busySeconds } from './busy-time.js';
import { rng } from '../../util/random.js';

/** The exact union of intervals, by sorting. */
function union(calls: readonly [number, number][]): number {
  const s = [...calls].sort((a, b) => a[0] - b[0]);
  let total = 0, lo = -Infinity, hi = -Infinity;
  for (const [a, b] of s) {
    if (a > hi) {
      if (hi > lo) total += hi - lo;
      lo = a;
      hi = b;
    } else if (b > hi) hi = b;
  }
  if (hi > lo) total += hi - lo;
  return total;
}

function busyOf(calls: readonly [number, number][], proc = 0): number {
  const b = new BusyTime();
  for (const [s, e] of calls) b.add(proc, s, e);
  return busySeconds(b.snapshot()).get(proc) ?? 0;
}

/** One thread's calls: back to back with gaps, from `t0`. */
function thread(r: () => number, n: number, t0: number, call: number, gap: number): [number, number][] {
  const out: [number, number][] = [];
  let t = t0;
  for (let i = 0; i < n; i++) {
    const d = r() * call;
    out.push([t, t + d]);
    t += d + r() * gap;
  }
  return out;
}

test('calls that do not overlap count exactly, in any order and over any span', () => {
  const r = rng(7);
  for (const [n, call, gap] of [[10, 1e-4, 1e-3], [5000, 2e-3, 5e-2], [20000, 1e-5, 1e-1], [3, 30, 600]] as const) {
    const calls = thread(r, n, 1.7e9 + r() * 100, call, gap);
    const exact = calls.reduce((s, [a, b]) => s + (b - a), 0);
    assert.ok(Math.abs(busyOf(calls) - exact) <= 1e-9 * exact, `n=${n}`);
    const shuffled = [...calls].sort(() => r() - 0.5);
    assert.ok(Math.abs(busyOf(shuffled) - exact) <= 1e-9 * exact, `n=${n} shuffled`);
  }
});

test('overlapping threads count once, within a slot per call of the exact union, never above the sum', () => {
  const r = rng(11);
  // Twenty threads, each flushed as a block (the order DFTracer writes them in).
  const calls: [number, number][] = [];
  for (let t = 0; t < 20; t++) calls.push(...thread(r, 400, 100, 0.08, 0.4));
  const exact = union(calls);
  const sum = calls.reduce((s, [a, b]) => s + (b - a), 0);
  const got = busyOf(calls);
  assert.ok(sum > 3 * exact, 'the threads overlap');
  assert.ok(got >= exact - 1e-9, `${got} below the union ${exact}`);
  assert.ok(got <= exact * 1.05, `${got} more than 5% above the union ${exact}`);
  // A long call covering them all is the whole span (give or take its two end slots: 2^-6 s at this span).
  const span = Math.max(...calls.map((c) => c[1])) - 100;
  const all = busyOf([...calls, [100, 100 + span]]);
  assert.ok(all >= span - 1e-9 && all <= span + 2 / 64, `${all} for a span of ${span}`);
});

test('a process never counts more than the time its calls span; nested calls add nothing', () => {
  const outer: [number, number][] = [[10, 20], [30, 40]];
  const inner: [number, number][] = [[11, 12], [12.5, 19], [30, 40]];
  assert.equal(busyOf([...outer, ...inner]), 20);
  assert.equal(busyOf([[5, 5], [6, 4], [NaN, 1], [0, Infinity]]), 0);
});

test('trackers of parts merge into the tracker of the whole; processes stay apart', () => {
  const r = rng(3);
  const a = thread(r, 3000, 0, 0.01, 0.05);
  const b = thread(r, 3000, 200, 0.01, 0.05);
  const whole = new BusyTime();
  const p1 = new BusyTime(), p2 = new BusyTime();
  for (const [s, e] of a) {
    whole.add(0, s, e);
    p1.add(0, s, e);
    p2.add(0, s + 1000, e + 1000);
  }
  for (const [s, e] of b) {
    whole.add(1, s, e);
    p2.add(0, s, e);
  }
  const merged = new BusyTime();
  merged.merge(p1.snapshot(), Int32Array.of(0));
  // p2's process 0 is the merged tracker's process 1.
  merged.merge(p2.snapshot(), Int32Array.of(1));
  const got = busySeconds(merged.snapshot());
  const want = busySeconds(whole.snapshot());
  assert.ok(Math.abs(got.get(0)! - want.get(0)!) < 1e-9);
  const both = union([...a.map(([s, e]): [number, number] => [s + 1000, e + 1000]), ...b]);
  assert.ok(Math.abs(got.get(1)! - both) <= 1e-9 * both);
});

test('memory stays bounded: many processes over a long run share the slot budget', () => {
  const b = new BusyTime();
  for (let p = 0; p < 5000; p++) for (let i = 0; i < 20; i++) b.add(p, i * 3600, i * 3600 + 1);
  const snap = b.snapshot();
  assert.ok(snap.slots.length / 3 <= 2 * (1 << 22), `${snap.slots.length / 3} slots`);
  for (const [, t] of busySeconds(snap)) assert.ok(Math.abs(t - 20) < 1e-6);
});
