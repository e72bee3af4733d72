import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cube } from './cube.js';
import { Category, ChunkWriter, Layer, TraceDicts } from './model.js';
import { buildReport } from './report.js';
import { BUILTIN_RULES } from './rules/builtin/index.js';
import { levelBoundaries, severityOf, type MetricId } from './score.js';

const MiB = 1024 * 1024;

/**
 * Hand-checkable trace: 20 writes, 20 s of I/O in all.
 *   A (proc 0):  1 op, 10 s, 10 MiB → ops 5%,  time 50% → atan2(50, 5)  = 84.29° → critical
 *   C (proc 0):  4 ops, 4 s, 4 MiB  → ops 20%, time 20% → 45°          → none (at the threshold)
 *   D (proc 1):  2 ops, 3 s, 2 MiB  → ops 10%, time 15% → 56.31°       → low (badness 0.2514)
 *   B (proc 1): 13 ops, 3 s, 13 MiB → ops 65%, time 15% → 12.99°       → none
 */
/** The four files below, traced into a cube (`fixedBase`: the time-window origin for the time view). */
function handCube(fixedBase?: number) {
  const dicts = new TraceDicts();
  const cube = new Cube({ layerMask: 1 << Layer.POSIX, smallBytes: MiB, ...(fixedBase !== undefined ? { fixedBase } : {}) });
  const w = new ChunkWriter(dicts, (c) => cube.add(c));
  const p0 = dicts.proc('0', 'h', 'app');
  const p1 = dicts.proc('1', 'h', 'app');
  const wr = dicts.funcs.id('write');
  let t = 0;
  const emit = (proc: number, file: string, ops: number, secs: number) => {
    const f = dicts.files.id(file);
    for (let i = 0; i < ops; i++) {
      w.push(proc, f, wr, Layer.POSIX, Category.WRITE, i * MiB, MiB, t, t + secs / ops);
      t += secs / ops;
    }
  };
  emit(p0, '/d/A', 1, 10);
  emit(p0, '/d/C', 4, 4);
  emit(p1, '/d/D', 2, 3);
  emit(p1, '/d/B', 13, 3);
  w.flush();
  return { cube, dicts, events: w.count };
}

function handTrace(metric: MetricId, threshold?: number) {
  const { cube, dicts, events } = handCube();
  return buildReport(cube.snapshot(), dicts, { format: 'dxt', events, sources: 1, warnings: [] }, ['hand'], {
    views: ['file', 'proc', 'proc>file'],
    metric,
    ...(threshold !== undefined ? { threshold } : {}),
    minTimeShare: 0,
    smallBytes: MiB,
    rules: BUILTIN_RULES,
    top: 0,
    layers: ['POSIX'],
  });
}

function sevByFile(r: ReturnType<typeof handTrace>): Record<string, string> {
  const v = r.views.find((x) => x.name === 'file')!;
  const out: Record<string, string> = { '/d/A': 'none', '/d/B': 'none', '/d/C': 'none', '/d/D': 'none' };
  for (const b of v.top) out[String(b.key.file)] = b.severity;
  return out;
}

test('IOPS slope severities on a hand-checkable trace', () => {
  const r = handTrace('iops_slope');
  assert.deepEqual(sevByFile(r), { '/d/A': 'critical', '/d/B': 'none', '/d/C': 'none', '/d/D': 'low' });
  const a = r.views[0].top[0];
  assert.equal(a.key.file, '/d/A');
  assert.equal(a.value, Number(((Math.atan2(0.5, 0.05) * 180) / Math.PI).toPrecision(9)));
  assert.equal(r.views[0].records, 4);
  assert.equal(r.characteristics.ops, 20);
  assert.ok(Math.abs(r.characteristics.io_time - 20) < 1e-9);
  assert.equal(r.characteristics.calls_by_function.write, 20);
  // process view: proc 0 has 5 ops (25%) and 14 s (70%) → 70.35° → very high; proc 1: 15 ops, 6 s → none
  const pv = r.views.find((x) => x.name === 'proc')!;
  assert.deepEqual(pv.top.map((b) => [b.key.proc, b.severity]), [['0', 'very high']]);
  // ordered combination proc>file only looks inside the flagged process 0
  const pf = r.views.find((x) => x.name === 'proc>file')!;
  assert.equal(pf.parent, 'proc');
  assert.equal(pf.records, 2);
  assert.deepEqual(pf.top.map((b) => [b.key.proc, b.key.file, b.severity]), [['0', '/d/A', 'critical']]);
  // a stricter threshold (60°) leaves D (56.31°) as none
  assert.deepEqual(sevByFile(handTrace('iops_slope', 60)), { '/d/A': 'critical', '/d/B': 'none', '/d/C': 'none', '/d/D': 'none' });
});

test('time-share and bandwidth metrics', () => {
  // time: A 50% → (50-5)/95 = 0.4737 → high; C 20% → 0.158 → very low; D, B 15% → 0.105 → trivial
  assert.deepEqual(sevByFile(handTrace('time')), { '/d/A': 'high', '/d/B': 'trivial', '/d/C': 'very low', '/d/D': 'trivial' });
  // bw (100 MiB/s): A 1 MiB/s → 0.99 → critical; C 1 MiB/s → critical; D 0.667 MiB/s → critical; B 4.33 MiB/s → 0.957 → critical
  const bw = sevByFile(handTrace('bw'));
  assert.deepEqual(bw, { '/d/A': 'critical', '/d/B': 'critical', '/d/C': 'critical', '/d/D': 'critical' });
  // bw threshold 5 MiB/s: B 4.333 → (5-4.333)/5 = 0.133 → very low; A, C 1 MiB/s → 0.8 → critical; D 0.667 → 0.867 → critical
  assert.deepEqual(sevByFile(handTrace('bw', 5)), { '/d/A': 'critical', '/d/B': 'very low', '/d/C': 'critical', '/d/D': 'critical' });
});

test('level boundaries: 45° → 50, 55, 60, 65, 70, 80', () => {
  assert.deepEqual(levelBoundaries('iops_slope', 45).map((l) => l.upTo), [45, 50, 55, 60, 65, 70, 80, null]);
  assert.equal(severityOf(0), 'none');
  assert.equal(severityOf(1 / 9), 'trivial');
  assert.equal(severityOf(1 / 9 + 1e-6), 'very low');
  assert.equal(severityOf(0.5), 'high');
  assert.equal(severityOf(0.78), 'critical');
});

test('rules explain the hand trace and coverage is reported', () => {
  const r = handTrace('iops_slope');
  const a = r.views[0].top[0];
  // 1 op of 10 s → mean latency 10 s
  assert.deepEqual(a.reasons.map((x) => x.rule), ['slow-calls']);
  assert.equal(r.rules.coverage.bottlenecks, 4);
  assert.equal(r.rules.coverage.explained, 4);
  const ids = BUILTIN_RULES.map((x) => x.id);
  assert.equal(new Set(ids).size, ids.length);
});

/**
 * The time view, by hand: the same four files laid end to end in time (A 0–10 s, C 10–14 s, D 14–17 s, B 17–20 s),
 * 5-second windows, calls binned by their start:
 *   0 s:  A's one call                          → ops 1/20 = 5%,  time 10/20 = 50%   → atan2(50, 5)     = 84.29° → critical
 *   5 s:  nothing starts here                   → no record
 *   10 s: C's 4 calls + D's first (1.5 s)       → ops 25%,        time 5.5/20 = 27.5% → atan2(27.5, 25) = 47.73° → trivial
 *   15 s: D's second call + B's 13              → ops 70%,        time 4.5/20 = 22.5% → 17.82°                   → none
 */
test('time-window view: exact severities, values and keys on a hand-checkable trace', () => {
  const { cube, dicts, events } = handCube(5);
  const r = buildReport(cube.snapshot(), dicts, { format: 'dxt', events, sources: 1, warnings: [] }, ['hand'], {
    views: ['time'],
    metric: 'iops_slope',
    granularity: 5,
    minTimeShare: 0,
    smallBytes: MiB,
    rules: BUILTIN_RULES,
    top: 0,
    layers: ['POSIX'],
  });
  assert.equal(r.options.granularity, 5);
  const v = r.views[0];
  assert.equal(v.name, 'time');
  assert.equal(v.records, 3);
  assert.equal(v.bottlenecks, 2);
  assert.deepEqual(v.by_severity, { none: 1, trivial: 1, 'very low': 0, low: 0, medium: 0, high: 0, 'very high': 0, critical: 1 });
  assert.deepEqual(v.top.map((b) => [b.key.time, b.severity]), [[0, 'critical'], [10, 'trivial']]);
  const [w0, w10] = v.top;
  assert.equal(w0.value.toFixed(4), (Math.atan2(50, 5) * 180 / Math.PI).toFixed(4));
  assert.equal(w0.score.toFixed(4), ((Math.atan2(50, 5) * 180 / Math.PI - 45) / 45).toFixed(4));
  assert.equal(w0.metrics.ops, 1);
  assert.equal(w0.metrics.time, 10);
  assert.equal(w10.value.toFixed(4), (Math.atan2(27.5, 25) * 180 / Math.PI).toFixed(4));
  assert.equal(w10.score.toFixed(4), ((Math.atan2(27.5, 25) * 180 / Math.PI - 45) / 45).toFixed(4));
  assert.equal(w10.metrics.ops, 5);
  assert.equal(w10.metrics.time.toFixed(9), '5.500000000');
  assert.equal(w10.metrics.nprocs, 2);
  assert.equal(w10.metrics.nfiles, 2);
});
