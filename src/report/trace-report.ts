import { ALL_KNOB_NAMES, type Knob } from '../config/knobs.js';
import type { ReportConfig } from '../config/defaults.js';
import {
  REPORT_SCHEMA_VERSION, TRACE_METRICS, type Bottleneck, type InputFormat, type Level, type ModuleCompleteness, type Report,
  type TraceCategoryStats, type TraceCharacteristics, type ViewReport,
} from '../contract/index.js';
import { identityMaps, mergeCubes, S_BYTES, S_OPS, S_TIME, STRIDE, type CubeData } from '../trace/cube.js';
import { CATEGORY_NAMES, LAYER_NAMES, type TraceDicts } from '../formats/trace/model.js';
import type { ReadResult, TraceJob } from '../formats/trace/readers/types.js';
import { byCost } from '../checks/trace/define.js';
import type { AnyCheck } from '../checks/types.js';
import { completeCost, costLevel, isQuiet, LEVEL_KNOBS, type Yardstick } from '../checks/level-policy.js';
import { yardstickOf } from '../checks/run-checks.js';
import { FactContext } from '../facts/fact-context.js';
import { traceTimeModel } from '../facts/counters/ledger.js';
import { ioSummaryOf } from '../facts/io-summary.js';
import type { JobFact } from '../facts/types.js';
import { METRICS, scoreRecord, type MetricId, type ScoredRecord, type ScoredView, type ScoreOptions } from '../trace/score.js';
import { parseView, viewName, type Dim } from '../trace/view-catalogue.js';
import { computeView, defaultGranularity, firstDimIds, ViewContext, type Metrics } from '../trace/views.js';
import { buildReportFromFacts } from './build-report.js';

export interface TraceReportOptions {
  /** Views in report order (`file`, `proc>file` …). */
  readonly views: readonly string[];
  readonly metric: MetricId;
  /** Metric threshold (default: the metric's). */
  readonly threshold?: number;
  /** Time-window width in seconds (default: 1/2/5 × 10^k giving ≤ 100 windows). */
  readonly granularity?: number;
  /** Flagged records listed per view (0 = all). */
  readonly top: number;
  /** Layers the cube holds (names). */
  readonly layers: readonly string[];
  /** Knobs (small_bytes, trace_*) and per-check overrides. */
  readonly config: ReportConfig;
  /** Checks to run: the built-in trace checks and compiled user rules. */
  readonly checks: readonly AnyCheck[];
  /** Checks listed as not applicable instead of run (built-in checks turned off), and why. */
  readonly skipped?: { readonly checks: readonly AnyCheck[]; readonly reason: string };
  /** Whether the trace's times are Unix seconds when the reader gives no origin (DFTracer). */
  readonly epochTimes?: boolean;
  readonly job?: TraceJob;
  /** What the reader's warnings say is missing (the report's completeness; findings then carry caveats). */
  readonly gaps?: readonly ModuleCompleteness[];
  readonly notes?: readonly string[];
  readonly toolVersion?: string;
  /**
   * The job's facts when the trace comes with its counters (a Darshan log's DXT): the job, its time model and its
   * completeness are the log's, as `iolens report` shows them. Otherwise they are derived from the trace itself.
   */
  readonly facts?: FactContext;
}

/** The level of a flagged record: by what its calls cost the job (the one level rule; summed over ranks). */
export function recordLevelOf(y: Yardstick, config: ReportConfig): (seconds: number) => Level {
  return (seconds) => costLevel(completeCost({ seconds }, y), config.knobs, isQuiet(y, config.knobs));
}

function round(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(9)) : 0;
}

function roundMetrics(m: Metrics): Record<(typeof TRACE_METRICS)[number], number> {
  return Object.fromEntries(TRACE_METRICS.map((k) => [k, round(m[k])])) as Record<(typeof TRACE_METRICS)[number], number>;
}

/**
 * Computes and scores the views: each record gets its metric score and its level (OK, or HIGH/WARN/INFO by its
 * share of the I/O time). A view of two or more dimensions looks only inside the flagged records of its parent
 * (`proc>file`: the files of the flagged processes), computing the parent silently when it was not asked for.
 */
export function scoreViews(ctx: ViewContext, views: readonly string[], score: ScoreOptions, levelOf: (seconds: number) => Level): ScoredView[] {
  const done = new Map<string, ScoredView>();
  const out: ScoredView[] = [];
  const scoreView = (dims: Dim[], parent: ScoredView | null): ScoredView => {
    const name = viewName(dims);
    let allowed: Set<number> | undefined;
    if (parent) {
      const keep = parent.records.filter((r) => r.level !== 'OK');
      allowed = firstDimIds(ctx, { name: parent.name, dims: [dims[0]], records: keep.map((r) => ({ key: { [dims[0]]: r.key[dims[0]] }, metrics: r.metrics })) }, () => true);
    }
    let records = computeView(ctx, dims, allowed).records;
    if (parent && dims.length > 2) {
      const prefix = (k: ScoredRecord['key']) => JSON.stringify(dims.slice(0, -1).map((d) => k[d]));
      const keys = new Set(parent.records.filter((r) => r.level !== 'OK').map((r) => prefix(r.key)));
      records = records.filter((r) => keys.has(prefix(r.key)));
    }
    return {
      name,
      dims,
      parent: parent ? parent.name : null,
      records: records.map((r) => {
        const s = scoreRecord(r.metrics, score);
        return { view: name, dims, key: r.key, metrics: r.metrics, score: { metric: score.metric, value: s.value, badness: s.badness }, level: s.badness > 0 ? levelOf(r.metrics.time) : 'OK' };
      }),
    };
  };
  const get = (dims: Dim[]): ScoredView => {
    const name = viewName(dims);
    let v = done.get(name);
    if (!v) {
      v = scoreView(dims, dims.length > 1 ? get(dims.slice(0, -1)) : null);
      done.set(name, v);
    }
    return v;
  };
  const seen = new Set<string>();
  for (const name of views) {
    const dims = parseView(name);
    if (seen.has(viewName(dims))) continue;
    seen.add(viewName(dims));
    out.push(get(dims));
  }
  return out;
}

function categoryStats(cube: CubeData, k: number, totals: { ops: number; bytes: number; time: number }): TraceCategoryStats {
  let ops = 0;
  let bytes = 0;
  let time = 0;
  const st = cube.stats;
  for (let o = 0; o < st.length; o += STRIDE) {
    ops += st[o + S_OPS + k];
    bytes += st[o + S_BYTES + k];
    time += st[o + S_TIME + k];
  }
  const sh = (a: number, b: number) => (b > 0 ? a / b : 0);
  return { ops, bytes, time, opsShare: sh(ops, totals.ops), bytesShare: sh(bytes, totals.bytes), timeShare: sh(time, totals.time) };
}

function characteristics(ctx: ViewContext, read: ReadResult): TraceCharacteristics {
  const { cube, dicts: d, totals: t } = ctx;
  const procs = new Set<number>();
  const files = new Set<number>();
  for (let i = 0; i < cube.pairProc.length; i++) {
    procs.add(cube.pairProc[i]);
    if (cube.pairFile[i] >= 0) files.add(cube.pairFile[i]);
  }
  const hosts = new Set<number>();
  const apps = new Set<number>();
  for (const p of procs) {
    hosts.add(d.procHost[p]);
    apps.add(d.procApp[p]);
  }
  const calls: [string, number][] = [];
  for (let f = 0; f < cube.funcCalls.length; f++) if (cube.funcCalls[f] > 0) calls.push([d.funcs.get(f), cube.funcCalls[f]]);
  calls.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const byLayer: Record<string, number> = {};
  LAYER_NAMES.forEach((n, i) => {
    if (cube.layerCalls[i] > 0) byLayer[n] = cube.layerCalls[i];
  });
  const [read_, write, metadata, sync, other] = CATEGORY_NAMES.map((_, k) => categoryStats(cube, k, t));
  return {
    runtime: Number.isFinite(cube.maxEnd - cube.minStart) ? cube.maxEnd - cube.minStart : 0,
    ioTime: t.time,
    ops: t.ops,
    bytes: t.bytes,
    read: read_,
    write,
    metadata,
    sync,
    other,
    processes: procs.size,
    files: files.size,
    hosts: hosts.size,
    apps: apps.size,
    eventsTotal: read.events,
    eventsAnalyzed: cube.events,
    callsByLayer: byLayer,
    callsByFunction: Object.fromEntries(calls),
    notRecorded: read.format === 'dxt' ? ['metadata', 'sync', 'other'] : [],
  };
}

/** Unix seconds of a trace's first and last call, when its times have an origin (null when unknown). */
function traceTimes(cube: CubeData, read: ReadResult, epochTimes: boolean): { start: number; end: number } | null {
  const base = read.timeOrigin ?? (epochTimes ? 0 : null);
  if (base === null || !Number.isFinite(cube.minStart)) return null;
  return { start: base + cube.minStart, end: base + cube.maxEnd };
}

/**
 * The facts of a trace without a log behind it: its job (what the reader says, its first and last call), its
 * layers and files, its completeness and its time model — built from the cube's ledger by the same function that
 * `iolens report` on the trace uses, so both show the same I/O time.
 */
function traceFacts(cube: CubeData, dicts: TraceDicts, read: ReadResult, ch: TraceCharacteristics, opts: TraceReportOptions): FactContext {
  const model = traceTimeModel(cube.ledger, dicts, read.format === 'dxt' ? { notRecorded: dxtGaps(ch) } : {});
  const times = traceTimes(cube, read, opts.epochTimes ?? false);
  const command = opts.job?.command ?? '';
  const job: JobFact = {
    jobId: opts.job?.jobId ?? '',
    exe: command.trim().split(/\s+/)[0] ?? '',
    command,
    uid: opts.job?.uid ?? '',
    startSeconds: times?.start ?? NaN,
    endSeconds: times?.end ?? NaN,
    runSeconds: model.runTime,
    processes: opts.job?.processes ?? ch.processes,
    darshanVersion: '',
    metadata: [],
  };
  const layers = [{ layer: opts.layers.join('+'), bytesRead: ch.read.bytes, bytesWritten: ch.write.bytes, cumulativeTime: ch.ioTime, slowestRankTime: NaN, throughput: null }];
  const gaps = [...(opts.gaps ?? [])];
  return FactContext.fromValues({
    job,
    modules: { names: Object.keys(ch.callsByLayer) },
    'files.counts': { total: ch.files, stdio: 0, posix: 0, mpiio: 0 },
    'io.time': model,
    'io.summary': ioSummaryOf(model, opts.layers.length ? layers.map((l) => ({ ...l, slowestRankTime: model.ioTime, throughput: model.ioTime > 0 ? (ch.read.bytes + ch.write.bytes) / model.ioTime : null })) : [], ch.read.bytes + ch.write.bytes, (key) => key.toString()),
    completeness: { complete: gaps.length === 0, modules: gaps },
  });
}

/** What a DXT trace's views cannot time: its metadata and sync calls (reads and writes alone are traced). */
function dxtGaps(ch: TraceCharacteristics): { layer: string; op: 'metadata' | 'sync'; reason: string }[] {
  return Object.keys(ch.callsByLayer).flatMap((layer) => (['metadata', 'sync'] as const).map((op) => ({ layer, op, reason: 'DXT traces only read and write calls' })));
}

function emptyByLevel(): Record<Level, number> {
  return { HIGH: 0, WARN: 0, OK: 0, INFO: 0 };
}

/**
 * Builds the report of a trace from its merged cube with the one report builder: the job's facts (a DXT log's own,
 * else the trace's), the views scored and leveled by the one level rule against the job's I/O time, the trace checks
 * and user rules run by the one check engine, and the trace section (characteristics, views, coverage).
 */
export function buildTraceReport(cube: CubeData, dicts: TraceDicts, read: ReadResult, paths: readonly string[], opts: TraceReportOptions): Report {
  const span = Number.isFinite(cube.maxEnd - cube.minStart) ? cube.maxEnd - cube.minStart : 0;
  let granularity = opts.granularity ?? defaultGranularity(span, cube.base);
  if (granularity < cube.base) granularity = cube.base;
  granularity = Number((Math.round(granularity / cube.base) * cube.base).toPrecision(12));
  // the views add up the cube's cells summed into their own windows (a base finer than the granularity holds several
  // cells per record and window, each visited by every time view)
  const widened = granularity > cube.base ? mergeCubes([{ data: cube, ...identityMaps(dicts) }], granularity) : cube;
  const ctx = new ViewContext(widened, dicts, granularity);
  const ch = characteristics(ctx, read);
  const facts = opts.facts ?? traceFacts(cube, dicts, read, ch, opts);
  const metric = METRICS[opts.metric];
  const threshold = opts.threshold ?? metric.defaultThreshold;
  const knobs = opts.config.knobs;
  const scored = scoreViews(ctx, opts.views, { metric: opts.metric, threshold, minTimeShare: knobs.trace_min_time_share }, recordLevelOf(yardstickOf(facts), opts.config));
  const flagged = scored.flatMap((v) => v.records.filter((r) => r.level !== 'OK'));
  const gaps = [...(opts.gaps ?? [])];
  const used = new Set<Knob>([...LEVEL_KNOBS, 'trace_min_time_share']);
  for (const c of opts.checks) for (const spec of Object.values(c.meta.options as Record<string, { knob: Knob }>)) used.add(spec.knob);
  const report = buildReportFromFacts(facts, {
    mode: 'default',
    logName: logNameOf(paths),
    inputPath: paths[0] ?? '',
    config: opts.config,
    checks: opts.checks,
    views: { views: scored, flagged },
    gaps,
    thresholdKnobs: ALL_KNOB_NAMES.filter((k) => used.has(k)),
    notes: [...(opts.notes ?? [])],
    ...(opts.toolVersion !== undefined ? { toolVersion: opts.toolVersion } : {}),
  });

  const named = new Map<string, string[]>();
  const recordId = (view: string, key: object) => `${view}\u0000${JSON.stringify(key)}`;
  for (const f of report.insights) {
    for (const d of f.details) {
      if (d.subject.kind !== 'record') continue;
      const id = recordId(d.subject.view, d.subject.key);
      const codes = named.get(id) ?? [];
      if (!codes.includes(f.code)) codes.push(f.code);
      named.set(id, codes);
    }
  }
  let bottlenecks = 0;
  let explained = 0;
  const views: ViewReport[] = scored.map((v) => {
    const byLevel = emptyByLevel();
    const flaggedHere: ScoredRecord[] = [];
    for (const r of v.records) {
      byLevel[r.level]++;
      if (r.level !== 'OK') flaggedHere.push(r);
    }
    flaggedHere.sort((a, b) => byCost(a, b));
    const listed = opts.top > 0 ? flaggedHere.slice(0, opts.top) : flaggedHere;
    const viewExplained = flaggedHere.filter((r) => named.has(recordId(v.name, r.key))).length;
    bottlenecks += flaggedHere.length;
    explained += viewExplained;
    const top: Bottleneck[] = listed.map((r) => ({
      key: r.key as Record<string, string | number>,
      level: r.level,
      score: { metric: r.score.metric, value: round(r.score.value), badness: round(r.score.badness) },
      metrics: roundMetrics(r.metrics),
      findings: named.get(recordId(v.name, r.key)) ?? [],
    }));
    return { name: v.name, dims: [...v.dims], parent: v.parent, records: v.records.length, bottlenecks: flaggedHere.length, byLevel, explained: viewExplained, top };
  });
  // The built-in checks turned off are listed as such, before the ones that ran.
  const skipped = (opts.skipped?.checks ?? []).map((c) => ({ code: c.meta.code, status: 'notApplicable' as const, reason: opts.skipped!.reason }));
  return {
    ...report,
    schemaVersion: REPORT_SCHEMA_VERSION,
    input: { format: read.format as InputFormat, paths: [...paths], events: read.events, sources: read.sources, warnings: [...read.warnings] },
    checks: [...skipped, ...report.checks],
    // A log's own completeness, with what the trace reader found missing that the log does not already say.
    completeness: mergeGaps(report.completeness, gaps),
    trace: {
      timeOrigin: read.timeOrigin ?? null,
      details: read.details ?? {},
      options: { views: views.map((v) => v.name), layers: [...opts.layers], granularity, smallBytes: knobs.small_bytes, minTimeShare: knobs.trace_min_time_share, top: opts.top },
      severity: { metric: opts.metric, description: metric.description, unit: metric.unit, threshold },
      characteristics: ch,
      views,
      coverage: { bottlenecks, explained, share: bottlenecks > 0 ? round(explained / bottlenecks) : 1 },
    },
  };
}

function mergeGaps(c: Report['completeness'], gaps: readonly ModuleCompleteness[]): Report['completeness'] {
  const extra = gaps.filter((g) => !c.modules.some((m) => m.module === g.module && m.detail === g.detail));
  return extra.length ? { complete: false, modules: [...c.modules, ...extra] } : c;
}

/** The banner's name for the input paths. */
function logNameOf(paths: readonly string[]): string {
  const name = (p: string) => p.replace(/\/+$/, '').split('/').pop() || p;
  return paths.length === 0 ? '' : paths.length === 1 ? name(paths[0]) : `${name(paths[0])} and ${paths.length - 1} more`;
}
