import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultKnobValues, type Knob } from '../../config/knobs.js';
import type { CheckOverride } from '../../config/defaults.js';
import { Category } from '../../formats/trace/model.js';
import { buildTraceReport } from '../../report/trace-report.js';
import { reportSchemaErrors } from '../../testing/schema.js';
import { handCube, HandTrace } from '../../testing/trace-events.js';
import { TRACE_CHECKS } from './registry.js';
import { ruleLevel } from '../level-policy.js';
import type { ScoredRecord } from '../../trace/score.js';

const KiB = 1024;
const MiB = 1024 * KiB;
/** A time unit that keeps every sum exact (2^-10 s ≈ 0.98 ms). */
const U = 2 ** -10;

/**
 * Every scenario is a background file (200 sequential 2 MiB writes of one unit each, never flagged) plus a subject
 * whose calls are slower than their share of the work, so that the IOPS slope flags it; the subject shows exactly
 * one problem.
 */
function scenario(subject: (t: HandTrace) => void, bare = false): HandTrace {
  const t = new HandTrace();
  if (!bare) t.calls('bg', '/bg/base', 200, { size: 2 * MiB, seconds: U });
  subject(t);
  return t;
}

function analyse(t: HandTrace, o: { views?: string[]; knobs?: Partial<Record<Knob, number>>; checks?: Record<string, CheckOverride> } = {}) {
  const { cube, dicts, read } = handCube(t.events, { smallBytes: o.knobs?.small_bytes ?? MiB });
  const report = buildTraceReport(cube, dicts, read, ['hand'], {
    views: o.views ?? ['file'],
    metric: 'iops_slope',
    top: 0,
    layers: ['POSIX'],
    config: { knobs: { ...defaultKnobValues(), ...o.knobs }, checks: o.checks ?? {} },
    checks: TRACE_CHECKS,
  });
  assert.deepEqual(reportSchemaErrors(report), []);
  return report;
}

const fired = (r: ReturnType<typeof analyse>) => r.insights.map((i) => i.code);

const SCENARIOS: { code: string; views?: string[]; knobs?: Partial<Record<Knob, number>>; bare?: boolean; subject: (t: HandTrace) => void; records: string[] }[] = [
  {
    code: 'T01',
    subject: (t) => t.calls('0', '/s/x', 12, { cat: Category.METADATA, seconds: 9 * U }).calls('0', '/s/x', 2, { size: 2 * MiB, seconds: U }),
    records: ['file=/s/x'],
  },
  {
    // operations 10 : 1 : 1 over three processes, bytes equal; the busiest takes twice as long as the others
    code: 'T02',
    knobs: { small_bytes: KiB },
    subject: (t) => t.calls('0', '/s/x', 10, { size: 100 * KiB, seconds: 2 * U }).calls('1', '/s/x', 1, { size: 1000 * KiB, seconds: 10 * U }).calls('2', '/s/x', 1, { size: 1000 * KiB, seconds: 10 * U }),
    records: ['file=/s/x'],
  },
  {
    // bytes 16 : 2 : 2 MiB, operations equal; the busiest takes twice as long as the others
    code: 'T03',
    subject: (t) => t.calls('0', '/s/x', 2, { size: 8 * MiB, seconds: 8 * U }).calls('1', '/s/x', 2, { size: MiB, seconds: 4 * U }).calls('2', '/s/x', 2, { size: MiB, seconds: 4 * U }),
    records: ['file=/s/x'],
  },
  { code: 'T04', subject: (t) => t.calls('0', '/s/x', 12, { cat: Category.READ, size: 4 * KiB, seconds: 5 * U }), records: ['file=/s/x'] },
  { code: 'T05', subject: (t) => t.calls('0', '/s/x', 12, { size: 4 * KiB, seconds: 5 * U }), records: ['file=/s/x'] },
  {
    // backwards through the file: 11 of 12 reads start before the end of the previous one
    code: 'T06',
    subject: (t) => t.calls('0', '/s/x', 12, { cat: Category.READ, size: 2 * MiB, seconds: 5 * U, offsets: (i) => (11 - i) * 2 * MiB }),
    records: ['file=/s/x'],
  },
  {
    // four ranks write the same bytes; rank 3's calls take 8 times as long (the job's time model: 80 against 10 units)
    code: 'T07',
    views: ['file', 'proc'],
    bare: true,
    subject: (t) => {
      for (const p of ['0', '1', '2', '3']) t.calls(p, `/s/x${p}`, 10, { size: 2 * MiB, seconds: p === '3' ? 8 * U : U });
    },
    records: ['proc=3'],
  },
  {
    code: 'T08',
    subject: (t) => {
      for (const p of ['0', '1', '2', '3']) t.calls(p, '/s/x', 1, { size: 2 * MiB, seconds: 5 * U, offsets: () => Number(p) * 2 * MiB });
    },
    records: ['file=/s/x'],
  },
  {
    code: 'T09',
    subject: (t) => t.calls('0', '/s/x', 2, { size: 2 * MiB, seconds: 2 * U }).calls('0', '/s/x', 2, { cat: Category.SYNC, seconds: 8 * U }),
    records: ['file=/s/x'],
  },
  {
    // one process writes 101 files of 512 KiB (not small requests under a 256 KiB small size, small files); two
    // others write the data, so that no process is a straggler
    code: 'T10',
    views: ['file', 'proc'],
    knobs: { small_bytes: 256 * KiB },
    bare: true,
    subject: (t) => {
      for (const p of ['a', 'b']) t.calls(p, `/bg/${p}`, 100, { size: 2 * MiB, seconds: 3 * U });
      for (let i = 0; i < 101; i++) t.calls('0', `/s/f${i}`, 1, { size: 512 * KiB, seconds: 5 * U });
    },
    records: ['proc=0'],
  },
  { code: 'T11', subject: (t) => t.calls('0', '/s/x', 3, { size: 2 * MiB, seconds: 16 * U }), records: ['file=/s/x'] },
];

test('every built-in trace check has a scenario here', () => {
  assert.deepEqual(SCENARIOS.map((s) => s.code), TRACE_CHECKS.map((c) => c.meta.code));
});

for (const s of SCENARIOS) {
  test(`${s.code} fires on its scenario, and nothing else does`, () => {
    const r = analyse(scenario(s.subject, s.bare), s);
    assert.deepEqual(fired(r), [s.code]);
    const f = r.insights[0];
    assert.equal(f.problem, TRACE_CHECKS.find((c) => c.meta.code === s.code)!.meta.problem);
    assert.deepEqual(f.details.map((d) => d.data.record), s.records);
    for (const d of f.details) assert.equal(d.subject.kind, 'record');
    assert.deepEqual(r.checks.find((c) => c.code === s.code), { code: s.code, status: 'fired' });
    assert.equal(r.checks.filter((c) => c.status === 'quiet').length, TRACE_CHECKS.length - 1);
    // the cost is seconds of the job's I/O time (the time model of the trace), and the level follows it
    assert.ok(f.cost!.seconds > 0, s.code);
    assert.ok(f.savings && f.savings.high > 0 && f.savings.high <= f.cost!.seconds, s.code);
    assert.equal(f.level, ruleLevel('HIGH', f.cost, f.savings, defaultKnobValues()), s.code);
    const semantics = s.code === 'T02' || s.code === 'T03' || s.code === 'T07' ? 'slowest' : 'cumulative';
    assert.equal(f.cost!.semantics, semantics, s.code);
    assert.equal(r.trace!.coverage.explained, s.code === 'T07' ? 1 : s.records.length);
  });
}

test('a flagged record without any of the problems: every check is quiet', () => {
  const r = analyse(scenario((t) => t.calls('0', '/s/x', 10, { size: 2 * MiB, seconds: 5 * U })));
  const file = r.trace!.views[0];
  assert.deepEqual(file.top.map((b) => [b.key.file, b.level]), [['/s/x', 'WARN']]);
  assert.deepEqual(r.insights, []);
  assert.deepEqual(r.checks.map((c) => c.status), TRACE_CHECKS.map(() => 'quiet'));
  assert.deepEqual(r.trace!.coverage, { bottlenecks: 1, explained: 0, share: 0 });
  assert.deepEqual(r.summary, { high: 0, warn: 0, ok: 0, info: 0, recommendations: 0 });
});

test('T01 in numbers: message, data, evidence, thresholds, cost and level', () => {
  const r = analyse(scenario(SCENARIOS[0].subject));
  const f = r.insights[0];
  // the subject: 12 × 9 units of metadata + 2 × 1 unit of writes = 110 of the trace's 310 units; its metadata calls
  // cost 108 units, 35 % of the job's I/O time (summed over processes) and 17 % of its 2 × 310-unit run
  assert.deepEqual(f.cost, { seconds: 108 * U, semantics: 'cumulative', ioShare: 108 / 310, runShare: 108 / 620, basis: 'time' });
  assert.equal(f.level, 'HIGH');
  assert.equal(f.messageId, 'T01.finding');
  assert.equal(
    f.message,
    'Metadata calls take more than 50.00% of the I/O time of 1 flagged record(s); the records of the file view among them hold 35.48% of the time in traced calls and cost 105.47 ms, 98.18% of their time in 12 metadata calls',
  );
  assert.deepEqual(f.details.map((d) => d.message), ['file=/s/x: metadata calls take 98.18% of its I/O time (12 calls, 85.71% of its operations)']);
  assert.deepEqual(f.evidence.map((e) => [e.name, e.unit]), [['records', 'count'], ['timeShare', 'ratio'], ['seconds', 'seconds'], ['iops_slope', 'degrees'], ['badness', 'ratio'], ['metadataSeconds', 'seconds']]);
  assert.equal(f.evidence[5].value, 108 * U);
  assert.deepEqual(f.thresholds.map((t) => [t.option, t.knob, t.value]), [
    ['share', 'trace_metadata_time_share', 0.5], ['minOps', 'trace_min_ops', 10], ['high_cost_share', 'high_cost_share', 0.25], ['high_run_share', 'high_run_share', 0.05], ['warn_cost_share', 'warn_cost_share', 0], ['warn_run_share', 'warn_run_share', 0.01],
  ]);
  assert.deepEqual(f.recommendations.map((x) => x.id), ['T01.keepOpen', 'T01.fewerFiles']);
  assert.equal(r.messages['T01.record'], TRACE_CHECKS[0].meta.messages.record);
  assert.ok(r.thresholds.find((t) => t.knob === 'trace_metadata_time_share')!.triggered);
  assert.ok(!r.thresholds.find((t) => t.knob === 'trace_random_share')!.triggered);
});

test('knobs move the checks: a stricter threshold silences T11, a looser one keeps it', () => {
  const t = scenario(SCENARIOS[SCENARIOS.length - 1].subject);
  assert.deepEqual(fired(analyse(t, { knobs: { trace_slow_call_seconds: 0.02 } })), []);
  assert.deepEqual(fired(analyse(t, { knobs: { trace_slow_call_seconds: 0.001 } })), ['T11']);
  // the level rule: 44.3 of the trace's 248 units go beyond what the 6 MiB need (17.9 %): WARN by default, and WARN
  // still when HIGH starts at 15 %: what slow calls would save is a bound, never HIGH
  assert.equal(analyse(t).insights[0].level, 'WARN');
  assert.equal(analyse(t, { knobs: { high_cost_share: 0.15 } }).insights[0].level, 'WARN');
  assert.equal(analyse(t).insights[0].cost?.basis, 'bound');
  assert.equal(analyse(t, { knobs: { warn_cost_share: 0.5, high_cost_share: 0.9 } }).insights[0].level, 'INFO');
});

test('configuration overrides: a check turned off is not applicable; a level override wins over the cost', () => {
  const t = scenario(SCENARIOS[SCENARIOS.length - 1].subject);
  const off = analyse(t, { checks: { T11: { enabled: false } } });
  assert.deepEqual(fired(off), []);
  assert.deepEqual(off.checks.find((c) => c.code === 'T11'), { code: 'T11', status: 'notApplicable', reason: 'disabled by configuration' });
  assert.equal(analyse(t, { checks: { T11: { enabled: true, level: 'HIGH' } } }).insights[0].level, 'HIGH');
});

test('no double counting: a problem seen in the file, process and directory views costs the largest view share, not the sum', () => {
  const t = scenario((h) => h.calls('0', '/s/x', 3, { size: 2 * MiB, seconds: 16 * U }).calls('0', '/s/y', 3, { size: 2 * MiB, seconds: 16 * U }));
  const r = analyse(t, { views: ['file', 'proc', 'dir', 'proc>file'] });
  const f = r.insights.find((i) => i.code === 'T11')!;
  // named: /s/x, /s/y (file), proc 0, dir /s, and both files again in proc>file
  assert.deepEqual(f.details.map((d) => `${d.subject.kind === 'record' ? d.subject.view : ''} ${d.data.record}`).sort(), [
    'dir dir=/s', 'file file=/s/x', 'file file=/s/y', 'proc proc=0', 'proc>file proc=0 file=/s/x', 'proc>file proc=0 file=/s/y',
  ]);
  // what the calls take beyond their 12 MiB at the trace's bandwidth (412 MiB in 296 units), once, not per view
  assert.ok(Math.abs(f.cost!.ioShare - (96 - (12 * 296) / 412) / 296) < 1e-12);
  assert.equal(f.data.view, 'file', 'ties go to the first view');
});

test('costingView: shares that differ only by rounding are a tie, won by the view listed first', async () => {
  const { costingView } = await import('./define.js');
  const rec = (view: 'proc' | 'app', id: number, share: number) =>
    ({ view, dims: [view], key: { [view]: id }, metrics: { time_share: share }, score: { badness: 0 }, level: 'HIGH' }) as unknown as ScoredRecord;
  // the same calls: three processes' shares sum to 0.9999999999999999, the one application's is 1
  const procs = [rec('proc', 0, 0.7), rec('proc', 1, 0.2), rec('proc', 2, 0.1)];
  const tie = costingView([...procs, rec('app', 0, 1)]);
  assert.equal(tie.view, 'proc');
  assert.equal(tie.share, 0.9999999999999999);
  assert.equal(costingView([rec('app', 0, 1), ...procs]).view, 'app');
  // a real difference still wins
  assert.equal(costingView([rec('proc', 0, 0.5), rec('app', 0, 0.5 + 2e-9)]).view, 'app');
});

test('byCost: shares equal but for rounding leave the order to badness; small shares that differ keep their order', async () => {
  const { byCost } = await import('./define.js');
  const rec = (share: number, badness: number) => ({ view: 'proc', dims: ['proc'], key: {}, metrics: { time_share: share }, score: { badness }, level: 'HIGH' }) as unknown as ScoredRecord;
  // 0.1 + 0.2 against 0.3: a rounding apart, so the worse badness comes first
  assert.ok(byCost(rec(0.1 + 0.2, 0.1), rec(0.3, 0.9)) > 0);
  assert.ok(byCost(rec(0.3, 0.9), rec(0.1 + 0.2, 0.1)) < 0);
  // tiny shares are compared relative to their size: 5e-10 is five times 1e-10
  assert.ok(byCost(rec(5e-10, 0), rec(1e-10, 1)) < 0);
});
