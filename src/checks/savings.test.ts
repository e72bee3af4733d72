import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cost } from '../contract/index.js';
import { completeSavings, REFERENCE_BANDWIDTH, shareSavings, type JobBandwidth } from './savings.js';

const MiB = 2 ** 20;
const cost = (seconds: number, semantics: Cost['semantics'] = 'cumulative'): Cost => ({ seconds, semantics, ioShare: 0.5, runShare: 0.1, basis: 'time' });
const none: JobBandwidth = { read: null, write: null };

test('data calls: done well is the same bytes at the job\'s large-request bandwidth, else at the stated reference', () => {
  // 2 s of small writes moving 100 MiB; the job's large writes reach 200 MiB/s: done well 0.5 s, saves 1.5 s.
  const own = completeSavings({ kind: 'data', seconds: 2, readBytes: 0, writeBytes: 100 * MiB }, cost(2), { read: null, write: 200 * MiB });
  assert.deepEqual([own.seconds, own.low, own.high, own.basis, own.semantics], [1.5, 1, 1.75, 'job', 'cumulative']);
  assert.match(own.reference, /the job's large writes' 200 MiB\/s/);
  // No large writes in the job: the reference (500 MiB/s a process; the range down to 100 MiB/s, up to free).
  const ref = completeSavings({ kind: 'data', seconds: 2, readBytes: 0, writeBytes: 100 * MiB }, cost(2), none);
  assert.deepEqual([ref.seconds, ref.low, ref.high, ref.basis], [2 - (100 * MiB) / REFERENCE_BANDWIDTH.central, 1, 2, 'reference']);
  // Both directions: each at its own bandwidth; the job's read bandwidth and the reference for writes.
  const both = completeSavings({ kind: 'data', seconds: 3, readBytes: 100 * MiB, writeBytes: 50 * MiB }, cost(3), { read: 100 * MiB, write: null });
  assert.equal(both.seconds, 3 - 1 - (50 * MiB) / REFERENCE_BANDWIDTH.central);
  assert.equal(both.basis, 'reference');
  // Calls already as fast as done well save nothing; savings never exceed the cost, nor go below 0.
  assert.equal(completeSavings({ kind: 'data', seconds: 0.4, readBytes: 0, writeBytes: 100 * MiB }, cost(0.4), { read: null, write: 200 * MiB }).seconds, 0);
  assert.equal(completeSavings({ kind: 'data', seconds: 5, readBytes: 0, writeBytes: 0 }, cost(2), none).seconds, 2);
  assert.equal(completeSavings({ kind: 'data', seconds: Number.NaN, readBytes: 0, writeBytes: 0 }, cost(2), none).seconds, 0);
});

test('repeated calls, excess, one rank for many, and bounds', () => {
  // 100 syncs on 4 files took 10 s (0.1 s each); done well 4 syncs (0.4 s), flushing 64 MiB at the reference.
  const sync = completeSavings({ kind: 'calls', seconds: 10, calls: 100, needed: 4, bytes: 64 * MiB, what: 'one sync per file' }, cost(10), none);
  assert.equal(sync.seconds, 10 - Math.max(0.4, (64 * MiB) / REFERENCE_BANDWIDTH.central));
  assert.deepEqual([sync.low, sync.high, sync.basis], [10 - Math.max(0.8, (64 * MiB) / REFERENCE_BANDWIDTH.low), 9.6, 'reference']);
  const opens = completeSavings({ kind: 'calls', seconds: 2, calls: 40, needed: 10, what: 'one open per file' }, cost(2), none);
  assert.deepEqual([opens.seconds, opens.low, opens.high, opens.basis], [1.5, 1, 1.5, 'job']);
  // The slowest rank's excess over the median: saved as measured, at least half of it.
  const ex = completeSavings({ kind: 'excess', seconds: 0.3, what: "the slowest rank's time beyond the median's" }, cost(0.3, 'slowest'), none);
  assert.deepEqual([ex.seconds, ex.low, ex.high, ex.basis, ex.semantics], [0.3, 0.15, 0.3, 'job', 'slowest']);
  // Rank 0 doing 8 ranks' work for 4 s: at most 7/8 of it, half of that the estimate, a bound.
  const sp = completeSavings({ kind: 'spread', seconds: 4, ranks: 8 }, cost(4, 'slowest'), none);
  assert.deepEqual([sp.seconds, sp.low, sp.high, sp.basis], [1.75, 0, 3.5, 'bound']);
  const b = completeSavings({ kind: 'bound', seconds: 2, what: 'x' }, cost(2), none);
  assert.deepEqual([b.seconds, b.low, b.high, b.basis], [1, 0, 2, 'bound']);
});

test('the overlap rule: one problem saves its largest; problems together never more than the I/O time', () => {
  const s = (problem: string, seconds: number, semantics: Cost['semantics'] = 'cumulative') => ({ problem, savings: { seconds, low: 0, high: seconds, semantics, basis: 'job' as const, reference: '' } });
  // Two findings of one problem (the same calls): together what the larger saves.
  assert.deepEqual(shareSavings([s('small-writes', 3), s('small-writes', 1)], { slowest: 10, cumulative: 100 }), [0.75, 0.75]);
  // Different problems that fit: untouched.
  const T = 10;
  const small = shareSavings([s('a', 1), s('b', 1)], { slowest: 1, cumulative: T });
  const together = T * (1 - 0.9 * 0.9);
  assert.deepEqual(small, [together / 2, together / 2]);
  // Savings that would exceed the I/O time: shared, their sum below it.
  const big = shareSavings([s('a', 8), s('b', 6), s('c', 0.5, 'slowest')], { slowest: 1, cumulative: T });
  assert.ok(8 * big[0] + 6 * big[1] <= T);
  assert.ok(Math.abs(8 * big[0] + 6 * big[1] - T * (1 - 0.2 * 0.4)) < 1e-12);
  assert.equal(big[2], 1);
  // Findings without savings are untouched.
  assert.deepEqual(shareSavings([{ problem: 'a' }, s('b', 0)], { slowest: 1, cumulative: 1 }), [1, 1]);
});
