import { FormatError } from './errors.js';
import { LEVELS, PANELS, type CheckOutcome, type Detail, type Finding, type Level, type Panel, type Problem } from './finding.js';
import {
  TRACE_METRICS, type Bottleneck, type ModuleCompleteness, type Report, type ThresholdRow, type TraceCategoryStats,
  type TraceCharacteristics, type TraceDim, type ViewReport,
} from './report.js';

/**
 * Conversion of the trace reports of IOLens before the one report schema (`"schema": "iolens.trace/1"`: snake_case
 * fields, eight severities from the metric alone, reasons per bottleneck) into a schema-2 report (which `upgradeReport`
 * then brings up to date). What the old document holds carries over; what it never recorded is marked unknown and
 * said in `notes`.
 */

/** The built-in rules of iolens.trace/1 and the trace checks that replaced them (docs/trace.md). */
const RULE_CHECKS: Readonly<Record<string, { code: string; problem: Problem; panel: Panel; title: string }>> = {
  'excessive-metadata': { code: 'T01', problem: 'metadata-heavy', panel: 'METADATA', title: 'Metadata calls take most of the I/O time' },
  'operation-imbalance': { code: 'T02', problem: 'rank-imbalance', panel: 'OPERATIONS', title: 'Operations are imbalanced across processes' },
  'size-imbalance': { code: 'T03', problem: 'rank-imbalance', panel: 'OPERATIONS', title: 'Bytes are imbalanced across processes' },
  'small-reads': { code: 'T04', problem: 'small-reads', panel: 'OPERATIONS', title: 'Most reads are small' },
  'small-writes': { code: 'T05', problem: 'small-writes', panel: 'OPERATIONS', title: 'Most writes are small' },
  'random-access': { code: 'T06', problem: 'random-access', panel: 'OPERATIONS', title: 'Reads and writes jump back and forth in the files' },
  'rank-dominates': { code: 'T07', problem: 'time-imbalance', panel: 'OPERATIONS', title: 'One process spends most of the I/O time' },
  'shared-file': { code: 'T08', problem: 'shared-file-contention', panel: 'OPERATIONS', title: 'Many processes access the same file' },
  'fsync-heavy': { code: 'T09', problem: 'excessive-fsync', panel: 'OPERATIONS', title: 'Sync calls take a large part of the I/O time' },
  'many-files': { code: 'T10', problem: 'many-small-files', panel: 'METADATA', title: 'Very many files are accessed' },
  'slow-calls': { code: 'T11', problem: 'slow-calls', panel: 'OPERATIONS', title: 'Calls are slow on average' },
};

/** The part of the input a trace reader's warnings are about (the module names of today's readers). */
const WARNING_MODULES: Readonly<Record<string, string>> = { recorder: 'Recorder', 'recorder-parquet': 'Parquet', dftracer: 'DFTracer', dxt: 'DXT' };

/**
 * The level rule with the default cut-offs of the knobs trace_high_time_share and trace_warn_time_share (the old
 * report used no configuration), and the rows the converted report lists for them.
 */
const CUTS = { high: 0.25, warn: 0.05 };
const LEVEL_ROWS: readonly ThresholdRow[] = [
  { knob: 'trace_high_time_share', label: 'Trace: share of I/O time for HIGH at least', value: CUTS.high, unit: 'ratio', triggered: false },
  { knob: 'trace_warn_time_share', label: 'Trace: share of I/O time for WARN at least', value: CUTS.warn, unit: 'ratio', triggered: false },
];

function costLevel(share: number): Level {
  return share >= CUTS.high ? 'HIGH' : share >= CUTS.warn ? 'WARN' : 'INFO';
}

type Json = Record<string, unknown>;

/** A finding of a schema-2 report: its cost was a share of the I/O time, bytes or requests (upgrade.ts turns it into seconds). */
export type V2Finding = Omit<Finding, 'cost'> & { readonly cost?: { readonly share: number; readonly basis: 'time' | 'bytes' | 'operations' } };

function obj(v: unknown, where: string): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new FormatError(`not an iolens.trace/1 report (${where} is not an object)`);
  return v as Json;
}
function list(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw new FormatError(`not an iolens.trace/1 report (${where} is not a list)`);
  return v;
}
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function category(v: unknown): TraceCategoryStats {
  const c = obj(v, 'a category of characteristics');
  return { ops: num(c.ops), bytes: num(c.bytes), time: num(c.time), opsShare: num(c.ops_share), bytesShare: num(c.bytes_share), timeShare: num(c.time_share) };
}

function characteristics(v: unknown): TraceCharacteristics {
  const c = obj(v, 'characteristics');
  const counts = (x: unknown) => Object.fromEntries(Object.entries(obj(x ?? {}, 'a call count')).map(([k, n]) => [k, num(n)]));
  return {
    runtime: num(c.runtime),
    ioTime: num(c.io_time),
    ops: num(c.ops),
    bytes: num(c.bytes),
    read: category(c.read),
    write: category(c.write),
    metadata: category(c.metadata),
    sync: category(c.sync),
    other: category(c.other),
    processes: num(c.processes),
    files: num(c.files),
    hosts: num(c.hosts),
    apps: num(c.apps),
    eventsTotal: num(c.events_total),
    eventsAnalyzed: num(c.events_analyzed),
    callsByLayer: counts(c.calls_by_layer),
    callsByFunction: counts(c.calls_by_function),
    notRecorded: [],
  };
}

const label = (dims: readonly string[], key: Json) => dims.map((d) => `${d}=${key[d]}${d === 'time' ? 's' : ''}`).join(' ');

/** Converts an `iolens.trace/1` document. */
export function upgradeTraceV1(doc: Json): Record<string, unknown> {
  const input = obj(doc.input, 'input');
  const options = obj(doc.options, 'options');
  const severity = obj(doc.severity, 'severity');
  const rules = obj(doc.rules, 'rules');
  const ch = characteristics(doc.characteristics);
  const metric = str(severity.metric);
  const notes = [
    'converted from an iolens.trace/1 report: levels follow the share of the I/O time with the default cut-offs; the old rules had fixed thresholds (the defaults of today\'s trace knobs)',
    'the iolens.trace/1 report kept no I/O time per process: io.ioTime (the slowest process) and io.ioShare are unknown',
  ];

  interface Named { view: string; dims: string[]; key: Json; share: number; level: Level; text: string }
  const byRule = new Map<string, Named[]>();
  let unlisted = 0;
  const views: ViewReport[] = list(doc.views, 'views').map((x) => {
    const v = obj(x, 'a view');
    const dims = list(v.dims, 'dims').map(str) as TraceDim[];
    const name = str(v.name);
    const sev = obj(v.by_severity, 'by_severity');
    const top: Bottleneck[] = list(v.top, 'top').map((y) => {
      const b = obj(y, 'a bottleneck');
      const m = obj(b.metrics, 'metrics');
      const key = obj(b.key, 'key') as Record<string, string | number>;
      const level = costLevel(num(m.time_share));
      const reasons = list(b.reasons ?? [], 'reasons').map((r) => obj(r, 'a reason'));
      const codes: string[] = [];
      for (const r of reasons) {
        const rule = str(r.rule);
        const code = RULE_CHECKS[rule]?.code ?? rule;
        if (!codes.includes(code)) codes.push(code);
        const named = byRule.get(rule) ?? [];
        named.push({ view: name, dims, key, share: num(m.time_share), level, text: str(r.message) });
        byRule.set(rule, named);
      }
      return {
        key,
        level,
        score: { metric, value: num(b.value), badness: num(b.score) },
        metrics: Object.fromEntries(TRACE_METRICS.map((k) => [k, num(m[k])])) as Bottleneck['metrics'],
        findings: codes,
      };
    });
    top.sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || b.metrics.time_share - a.metrics.time_share || b.score.badness - a.score.badness);
    const bottlenecks = num(v.bottlenecks);
    const byLevel: Record<Level, number> = { HIGH: 0, WARN: 0, OK: num(sev.none), INFO: 0 };
    for (const b of top) byLevel[b.level]++;
    byLevel.INFO += bottlenecks - top.length;
    unlisted += bottlenecks - top.length;
    return { name, dims, parent: v.parent === null ? null : str(v.parent), records: num(v.records), bottlenecks, byLevel, explained: num(v.explained), top };
  });
  if (unlisted > 0) notes.push(`the old report listed only its top ${num(options.top)} bottlenecks per view: the levels of the ${unlisted} others are unknown (counted as INFO), and findings name only the listed ones`);

  // what the old report's warnings say is missing: every finding rests on the whole trace (caveat, at most WARN)
  const warnings = list(input.warnings ?? [], 'input.warnings').map(str);
  const gaps: ModuleCompleteness[] = warnings.map((w) => {
    const m = /^(DXT_[A-Z]+): (.*)$/.exec(w);
    return m ? { module: m[1], status: 'partial', detail: m[2] } : { module: WARNING_MODULES[str(input.format)] ?? str(input.format), status: 'partial', detail: w };
  });
  const caveats = [...new Set(gaps.map((g) => g.module))].sort().map((m) => `rests on ${m} data that is partial (see the report's completeness)`);
  const messages: Record<string, string> = {};
  const insights: V2Finding[] = [];
  for (const [rule, named] of byRule) {
    const known = RULE_CHECKS[rule];
    const code = known?.code ?? rule;
    // the cost rule of trace findings: the largest, over views, of the summed shares of the named records
    const perView = new Map<string, number>();
    for (const n of named) perView.set(n.view, (perView.get(n.view) ?? 0) + n.share);
    let view = '';
    let share = -1;
    for (const [v, s] of perView) if (s > share) [view, share] = [v, s];
    share = Math.min(1, share);
    const title = known?.title ?? rule;
    messages[`${code}.converted`] = '{title}: {records} flagged record(s) named in a converted iolens.trace/1 report; the records of the {view} view among them account for {sharePct} of the I/O time';
    messages[`${code}.convertedRecord`] = '{record}: {text}';
    const sharePct = `${(share * 100).toFixed(2)}%`;
    named.sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || b.share - a.share);
    const details: Detail[] = named.map((n) => {
      const record = label(n.dims, n.key);
      return { messageId: `${code}.convertedRecord`, message: `${record}: ${n.text}`, data: { record, text: n.text }, subject: { kind: 'record', view: n.view, key: n.key as Record<string, string | number> } };
    });
    const level = costLevel(share);
    insights.push({
      code,
      level: caveats.length && level === 'HIGH' ? 'WARN' : level,
      panel: known?.panel ?? 'OPERATIONS',
      ...(known ? { problem: known.problem } : {}),
      cost: { share, basis: 'time' as const },
      messageId: `${code}.converted`,
      message: `${title}: ${named.length} flagged record(s) named in a converted iolens.trace/1 report; the records of the ${view} view among them account for ${sharePct} of the I/O time`,
      data: { title, records: named.length, view, share, sharePct },
      evidence: [
        { name: 'records', value: named.length, unit: 'count', source: 'flagged view records the finding names' },
        { name: 'timeShare', value: share, unit: 'ratio', source: `time_share summed over the records of the ${view} view` },
      ],
      thresholds: [],
      details,
      recommendations: [],
      ...(caveats.length ? { caveats } : {}),
    });
  }
  insights.sort((a, b) => PANELS.indexOf(a.panel) - PANELS.indexOf(b.panel) || LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || (b.cost?.share ?? 0) - (a.cost?.share ?? 0));

  const fired = new Set(insights.map((i) => i.code));
  const ruleIds = (k: string) => list(rules[k] ?? [], `rules.${k}`).map((r) => str(obj(r, 'a rule').id));
  const builtin = ruleIds('builtin');
  const checks: CheckOutcome[] = [];
  if (builtin.length === 0) for (const r of Object.values(RULE_CHECKS)) checks.push({ code: r.code, status: 'notApplicable', reason: 'built-in trace checks turned off' });
  for (const id of [...builtin, ...ruleIds('user')]) {
    const code = RULE_CHECKS[id]?.code ?? id;
    checks.push({ code, status: fired.has(code) ? 'fired' : 'quiet' });
  }

  const summary = { high: 0, warn: 0, ok: 0, info: 0, recommendations: 0 };
  for (const i of insights) summary[i.level.toLowerCase() as 'high' | 'warn' | 'ok' | 'info']++;
  const details = obj(input.details ?? {}, 'input.details');
  const command = str(details.exe);
  const processes = num(details.nprocs) || num(details.totalRanks) || ch.processes;
  const paths = list(input.paths, 'input.paths').map(str);
  const coverage = obj(rules.coverage, 'rules.coverage');
  const smallBytes = num(options.small_bytes);
  const minTimeShare = num(options.min_time_share);
  const name = (p: string) => p.replace(/\/+$/, '').split('/').pop() || p;
  return {
    schemaVersion: 2,
    tool: { name: 'iolens', version: '' },
    mode: 'default',
    input: { format: str(input.format) as Report['input']['format'], paths, events: num(input.events), sources: num(input.sources), warnings },
    job: {
      jobId: '',
      exe: command.trim().split(/\s+/)[0] ?? '',
      command,
      logName: paths.length === 0 ? '' : paths.length === 1 ? name(paths[0]) : `${name(paths[0])} and ${paths.length - 1} more`,
      uid: '',
      startTime: { epochSeconds: 0, iso: '' },
      endTime: { epochSeconds: 0, iso: '' },
      durationSeconds: ch.runtime,
      processes,
      nodes: { count: null, source: null },
      files: { total: ch.files, stdio: 0, posix: 0, posixOnly: 0, mpiio: 0 },
      hints: { raw: null, entries: [], source: 'none' },
      modules: Object.keys(ch.callsByLayer),
      darshanVersion: '',
    },
    // the old report kept no per-process I/O time: the slowest process's time and the share are unknown
    io: {
      runTime: ch.runtime,
      ioTime: 0,
      ioShare: null,
      bytes: ch.read.bytes + ch.write.bytes,
      layers: [{ layer: list(options.layers, 'options.layers').map(str).join('+'), bytesRead: ch.read.bytes, bytesWritten: ch.write.bytes, cumulativeTime: ch.ioTime, slowestRankTime: 0, throughput: null }],
    },
    completeness: { complete: gaps.length === 0, modules: gaps },
    insights,
    summary,
    thresholds: [
      { knob: 'small_bytes', label: 'Small request size below', value: smallBytes, unit: 'bytes', triggered: false },
      ...LEVEL_ROWS.map((r) => ({ ...r, triggered: insights.length > 0 })),
      { knob: 'trace_min_time_share', label: 'Trace: share of I/O time to be flagged at least', value: minTimeShare, unit: 'ratio', triggered: false },
    ],
    checks,
    notes,
    messages,
    trace: {
      timeOrigin: typeof input.time_origin === 'number' ? input.time_origin : null,
      details,
      options: { views: list(options.views, 'options.views').map(str), layers: list(options.layers, 'options.layers').map(str), granularity: num(options.granularity), smallBytes, minTimeShare, top: num(options.top) },
      severity: { metric, description: str(severity.description), unit: str(severity.unit), threshold: num(severity.threshold) },
      characteristics: ch,
      views,
      coverage: { bottlenecks: num(coverage.bottlenecks), explained: num(coverage.explained), share: num(coverage.share) },
    },
  };
}
