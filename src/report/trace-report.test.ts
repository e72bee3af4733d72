import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../config/defaults.js';
import type { Report } from '../contract/index.js';
import { reportSchemaErrors } from '../testing/schema.js';
import { handCube, HandTrace } from '../testing/trace-events.js';
import { TRACE_CHECKS } from '../checks/trace/registry.js';
import { buildTraceReport } from './trace-report.js';
import type { MetricId } from '../trace/score.js';
import type { Knob } from '../config/knobs.js';

const MiB = 1024 * 1024;

/**
 * The hand-checkable trace: 20 writes, 20 s of I/O in all, laid end to end (A 0–10 s, C 10–14 s, D 14–17 s,
 * B 17–20 s).
 *   A (proc 0):  1 op, 10 s  → ops 5 %,  time 50 % → 84.29°  flagged, HIGH (50 % ≥ 25 %)
 *   C (proc 0):  4 ops, 4 s  → ops 20 %, time 20 % → 45°     not flagged (at the threshold): OK
 *   D (proc 1):  2 ops, 3 s  → ops 10 %, time 15 % → 56.31°  flagged, WARN (15 % ≥ 5 %)
 *   B (proc 1): 13 ops, 3 s  → ops 65 %, time 15 % → 12.99°  OK
 */
function handTrace(): HandTrace {
  return new HandTrace()
    .calls('0', '/d/A', 1, { size: MiB, seconds: 10 })
    .calls('0', '/d/C', 4, { size: MiB, seconds: 1 })
    .calls('1', '/d/D', 2, { size: MiB, seconds: 1.5 })
    .calls('1', '/d/B', 12, { size: MiB, seconds: 0.125 })
    .calls('1', '/d/B', 1, { size: MiB, seconds: 1.5, offsets: () => 12 * MiB });
}

function report(views: string[], o: { metric?: MetricId; threshold?: number; granularity?: number; fixedBase?: number; trace?: HandTrace; knobs?: Partial<Record<Knob, number>> } = {}): Report {
  const { cube, dicts, read } = handCube((o.trace ?? handTrace()).events, o.fixedBase !== undefined ? { fixedBase: o.fixedBase } : {});
  const config = defaultConfig();
  const r = buildTraceReport(cube, dicts, read, ['hand'], {
    views,
    metric: o.metric ?? 'iops_slope',
    ...(o.threshold !== undefined ? { threshold: o.threshold } : {}),
    ...(o.granularity !== undefined ? { granularity: o.granularity } : {}),
    top: 0,
    layers: ['POSIX'],
    config: { ...config, knobs: { ...config.knobs, trace_min_time_share: 0, ...o.knobs } },
    checks: TRACE_CHECKS,
    toolVersion: 'test',
  });
  assert.deepEqual(reportSchemaErrors(r), []);
  return r;
}

function levels(r: Report, view = 'file'): Record<string, string> {
  const v = r.trace!.views.find((x) => x.name === view)!;
  return Object.fromEntries(v.top.map((b) => [String(Object.values(b.key).join(' ')), b.level]));
}

test('IOPS slope flags, cost levels: A HIGH, D WARN; proc 0 HIGH; proc>file looks inside proc 0 only', () => {
  const r = report(['file', 'proc', 'proc>file']);
  const t = r.trace!;
  assert.deepEqual(levels(r), { '/d/A': 'HIGH', '/d/D': 'WARN' });
  const file = t.views[0];
  assert.deepEqual(file.byLevel, { HIGH: 1, WARN: 1, OK: 2, INFO: 0 });
  assert.equal(file.records, 4);
  assert.equal(file.bottlenecks, 2);
  const a = file.top[0];
  assert.deepEqual(a.score, { metric: 'iops_slope', value: Number(((Math.atan2(0.5, 0.05) * 180) / Math.PI).toPrecision(9)), badness: Number((((Math.atan2(0.5, 0.05) * 180) / Math.PI - 45) / 45).toPrecision(9)) });
  assert.equal(a.metrics.time_share, 0.5);
  assert.equal(a.metrics.ops, 1);
  // proc 0: 5 ops (25 %), 14 s (70 %) → 70.35°, HIGH; proc 1: 15 ops, 6 s → OK
  assert.deepEqual(levels(r, 'proc'), { '0': 'HIGH' });
  const pf = t.views[2];
  assert.equal(pf.parent, 'proc');
  assert.equal(pf.records, 2);
  assert.deepEqual(levels(r, 'proc>file'), { '0 /d/A': 'HIGH' });
  assert.equal(t.characteristics.ops, 20);
  assert.ok(Math.abs(t.characteristics.ioTime - 20) < 1e-9);
  assert.equal(t.characteristics.callsByFunction.write, 20);
});

test('slow calls (T11) and the straggler (T07) on the hand trace: every flagged record is named, each cost counted once', () => {
  // proc 0 spends 14 s for 5 MiB, proc 1 6 s for 15 MiB: 2.33 times, under D13's and T07's default ratio of 3 (short
  // runs vary 2–5× between ranks)…
  assert.deepEqual(report(['file', 'proc', 'proc>file']).insights.map((i) => i.code), ['T11']);
  // … a straggler at a ratio of 2: the job waits 8 s for proc 0 (57 % of its 14 s)
  const r = report(['file', 'proc', 'proc>file'], { knobs: { time_imbalance_ratio: 2 } });
  assert.deepEqual(r.insights.map((i) => i.code), ['T07', 'T11']);
  const s = r.insights[0];
  assert.deepEqual(s.cost, { seconds: 8, semantics: 'slowest', ioShare: 8 / 14, runShare: 8 / 20, basis: 'time' });
  assert.deepEqual(s.details.map((d) => d.data.record), ['proc=0']);
  const f = r.insights[1];
  // At the trace's own 1 MiB/s, A's one 1 MiB call needs 1 of its 10 s and proc 0's 5 MiB 5 of its 14 s: 9 s beyond,
  // slow. D (1.5 s per 1 MiB call) is flagged by the metric but only 1.5 times slower than the trace: not slow calls.
  assert.deepEqual(f.details.map((d) => d.data.record), ['proc=0', 'file=/d/A', 'proc=0 file=/d/A']);
  assert.equal(f.data.view, 'proc');
  // What the calls took beyond their bytes is what they could save at the trace's rate: a bound, so WARN at most.
  assert.deepEqual(f.cost, { seconds: 9, semantics: 'cumulative', ioShare: 9 / 20, runShare: 9 / 40, basis: 'bound' });
  assert.equal(f.level, 'WARN');
  for (const v of r.trace!.views) for (const b of v.top) assert.deepEqual(b.findings, v.name === 'proc' ? ['T07', 'T11'] : b.key.file === '/d/D' ? [] : ['T11'], `${v.name} ${JSON.stringify(b.key)}`);
  assert.deepEqual(r.trace!.coverage, { bottlenecks: 4, explained: 3, share: 0.75 });
  assert.deepEqual(r.summary, { high: 1, warn: 1, ok: 0, info: 0, recommendations: 4 });
  assert.deepEqual(r.checks.filter((c) => c.status === 'fired'), [{ code: 'T07', status: 'fired' }, { code: 'T11', status: 'fired' }]);
});

test('other metrics flag other records; levels still follow the cost', () => {
  // time > 5 %: every file; A 50 % HIGH, C 20 % WARN, D and B 15 % WARN
  assert.deepEqual(levels(report(['file'], { metric: 'time' })), { '/d/A': 'HIGH', '/d/C': 'WARN', '/d/D': 'WARN', '/d/B': 'WARN' });
  // bandwidth below 5 MiB/s: B moves 13 MiB in 3 s (4.33 MiB/s), A 1 MiB/s … all flagged
  assert.deepEqual(levels(report(['file'], { metric: 'bw', threshold: 5 })), { '/d/A': 'HIGH', '/d/C': 'WARN', '/d/D': 'WARN', '/d/B': 'WARN' });
  // below 4 MiB/s B is not slow
  assert.deepEqual(levels(report(['file'], { metric: 'bw', threshold: 4 })), { '/d/A': 'HIGH', '/d/C': 'WARN', '/d/D': 'WARN' });
  // a stricter IOPS-slope threshold (60°) leaves D (56.31°) unflagged
  assert.deepEqual(levels(report(['file'], { threshold: 60 })), { '/d/A': 'HIGH' });
});

test('a record with 2.9 % of the time never outranks one with 69 %, whatever their metric (issue 13)', () => {
  // file /big: 600 calls, 690 units of time (69 %) — 49° slope; /tiny: 1 call, 29 units (2.9 %) — 88°;
  // /rest: 399 calls, 281 units — not flagged. Units of 2^-10 s keep every sum exact.
  const U = 2 ** -10;
  const t = new HandTrace()
    .calls('0', '/big', 510, { size: MiB, seconds: U })
    .calls('0', '/big', 90, { size: MiB, seconds: 2 * U, offsets: (i) => (510 + i) * MiB })
    .calls('0', '/tiny', 1, { size: MiB, seconds: 29 * U })
    .calls('0', '/rest', 163, { size: MiB, seconds: U })
    .calls('0', '/rest', 236, { size: MiB, seconds: U / 2, offsets: (i) => (163 + i) * MiB });
  const r = report(['file'], { trace: t });
  const top = r.trace!.views[0].top;
  // /tiny costs 2.9 % of the job's I/O time: present and measurable (WARN), never above /big
  assert.deepEqual(top.map((b) => [b.key.file, b.level]), [['/big', 'HIGH'], ['/tiny', 'WARN']]);
  assert.ok(top[1].score.badness > 10 * top[0].score.badness, 'the small record has by far the worse metric');
  assert.equal(top[0].metrics.time_share, 0.69);
  assert.equal(top[1].metrics.time_share, 0.029);
});

test('time windows of 5 s: flagged windows and their levels', () => {
  // 0 s: A's call (50 % of the time, 5 % of the ops) → HIGH; 10 s: C's 4 calls + D's first (27.5 %, 25 %) → 47.7° → HIGH;
  // 15 s: D's second + B's 13 calls (22.5 %, 70 %) → OK
  const r = report(['time'], { granularity: 5, fixedBase: 5 });
  const v = r.trace!.views[0];
  assert.equal(r.trace!.options.granularity, 5);
  assert.equal(v.records, 3);
  assert.deepEqual(v.byLevel, { HIGH: 2, WARN: 0, OK: 1, INFO: 0 });
  assert.deepEqual(v.top.map((b) => [b.key.time, b.level, b.metrics.ops]), [[0, 'HIGH', 1], [10, 'HIGH', 5]]);
  assert.equal(v.top[1].metrics.time, 5.5);
  assert.equal(v.top[1].metrics.nprocs, 2);
});

test('the report is the contract report: job, input, thresholds, messages, checks', () => {
  const r = report(['file']);
  assert.equal(r.schemaVersion, 3);
  assert.deepEqual(r.tool, { name: 'iolens', version: 'test' });
  assert.deepEqual(r.input, { format: 'dxt', paths: ['hand'], events: 20, sources: 1, warnings: [] });
  assert.equal(r.job.logName, 'hand');
  assert.equal(r.job.processes, 2);
  assert.equal(r.job.durationSeconds, 20);
  assert.equal(r.job.startTime.iso, '', 'no time origin: the start is unknown');
  assert.deepEqual(r.job.modules, ['POSIX']);
  assert.equal(r.checks.length, TRACE_CHECKS.length);
  assert.deepEqual(Object.keys(r.messages).sort(), ['T11.finding', 'T11.record']);
  assert.deepEqual(r.thresholds.filter((x) => x.triggered).map((x) => x.knob), ['high_cost_share', 'high_run_share', 'warn_cost_share', 'warn_run_share', 'trace_slow_call_seconds', 'trace_slow_bandwidth_factor']);
  assert.equal(r.thresholds.find((x) => x.knob === 'small_bytes')!.value, MiB);
  assert.equal(r.trace!.options.smallBytes, MiB);
  assert.equal(r.trace!.options.minTimeShare, 0);
});
