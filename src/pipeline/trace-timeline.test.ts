import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handCube, type HandEvent } from '../testing/trace-events.js';
import { Category } from '../formats/trace/model.js';
import { computeView, ViewContext } from '../trace/views.js';
import { TIMELINE_WINDOWS, traceTimeline } from './trace-timeline.js';

/** Calls of two ranks, the later rank first (as a DXT log lists one file-rank record after another). */
function lateFirst(): HandEvent[] {
  const ev: HandEvent[] = [];
  for (let i = 0; i < 40; i++) ev.push({ proc: 'r1', file: '/f', func: 'write', cat: Category.WRITE, start: 7.25 + i * 0.1, end: 7.3 + i * 0.1, size: 10, offset: i * 10 });
  for (let i = 0; i < 60; i++) ev.push({ proc: 'r0', file: '/f', func: 'read', cat: Category.READ, start: 0.35 + i * 0.1, end: 0.37 + i * 0.1, size: 4, offset: i * 4 });
  return ev;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

test('the timeline keeps the calls before the cube\'s first event and has the time view\'s windows', () => {
  const { cube, dicts } = handCube(lateFirst());
  assert.ok(cube.cellWin.some((w) => w < 0), 'the cube holds windows before its first event');
  const tl = traceTimeline(cube, 0.5);
  assert.equal(sum(tl.ops), 100);
  assert.equal(sum(tl.writeBytes), 400);
  assert.equal(sum(tl.readBytes), 240);
  assert.equal(tl.windowSeconds, 0.5);
  // windows aligned on multiples of 0.5 s: the first is [0, 0.5), the last [11, 11.5)
  assert.equal(tl.ops.length, 23);
  const view = computeView(new ViewContext(cube, dicts, 0.5), ['time']);
  const byStart = new Map(view.records.map((r) => [r.key.time, r.metrics.ops]));
  tl.ops.forEach((ops, i) => assert.equal(ops, byStart.get(tl.start[i]) ?? 0, `window at ${tl.start[i]} s`));
  assert.equal(sum([...byStart.values()]), 100);
});

test('a timeline past its window limit widens by whole multiples, aligned, and keeps every call', () => {
  // calls at h / 100 s for h = 5001 … 10000, latest first (the cube's first event is its last): 5,000 windows of 10 ms
  const ev: HandEvent[] = [];
  for (let i = 0; i < 5000; i++) {
    const t = (10000 - i) / 100;
    ev.push({ proc: 'r0', file: '/f', func: 'write', cat: Category.WRITE, start: t, end: t + 0.004, size: 1, offset: i });
  }
  const { cube } = handCube(ev, { fixedBase: 0.01 });
  const tl = traceTimeline(cube, 0.01);
  assert.ok(tl.ops.length <= TIMELINE_WINDOWS);
  assert.equal(tl.windowSeconds, 0.03);
  // windows of 30 ms on whole multiples: the first holds h = 5001 … 5003 (5001 = 3 × 1667), the last 9999 and 10000
  const expected = new Map<number, number>();
  for (let h = 5001; h <= 10000; h++) expected.set(Math.floor(h / 3) - 1667, (expected.get(Math.floor(h / 3) - 1667) ?? 0) + 1);
  assert.deepEqual(tl.ops, [...expected.keys()].sort((a, b) => a - b).map((w) => expected.get(w)));
  assert.equal(sum(tl.writeBytes), 5000);
});
