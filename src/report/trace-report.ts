import { ALL_KNOB_NAMES, KNOBS, type Knob } from '../config/knobs.js';
import type { ReportConfig } from '../config/defaults.js';
import {
  LEVELS, REPORT_SCHEMA_VERSION, TRACE_METRICS, type Bottleneck, type InputFormat, type IoSummary, type JobInfo, type Level, type ModuleCompleteness, type Report,
  type TraceCategoryStats, type TraceCharacteristics, type ViewReport,
} from '../contract/index.js';
import { identityMaps, mergeCubes, S_BYTES, S_OPS, S_TIME, STRIDE, type CubeData } from '../trace/cube.js';
import { CATEGORY_NAMES, LAYER_NAMES, type TraceDicts } from '../formats/trace/model.js';
import type { ReadResult, TraceJob } from '../formats/trace/readers/types.js';
import { byCost } from '../checks/trace/define.js';
import { LEVEL_OPTIONS, runTraceChecks } from '../checks/trace/run.js';
import type { AnyTraceCheck, ScoredRecord, ScoredView } from '../checks/trace/types.js';
import { METRICS, recordLevel, scoreRecord, type LevelCuts, type MetricId, type ScoreOptions } from '../trace/score.js';
import { parseView, viewName, type Dim } from '../trace/view-catalogue.js';
import { computeView, defaultGranularity, firstDimIds, ViewContext, type Metrics } from '../trace/views.js';

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
  /** Checks to run: the built-in ones and compiled user rules. */
  readonly checks: readonly AnyTraceCheck[];
  /** Checks listed as not applicable instead of run (built-in checks turned off), and why. */
  readonly skipped?: { readonly checks: readonly AnyTraceCheck[]; readonly reason: string };
  /** Whether the trace's times are Unix seconds when the reader gives no origin (DFTracer). */
  readonly epochTimes?: boolean;
  readonly job?: TraceJob;
  /** What the reader's warnings say is missing (the report's completeness; findings then carry caveats). */
  readonly gaps?: readonly ModuleCompleteness[];
  readonly notes?: readonly string[];
  readonly toolVersion?: string;
}

/** The level rule's cuts from a configuration. */
export function levelCuts(config: ReportConfig): LevelCuts {
  return { high: config.knobs[LEVEL_OPTIONS.highTimeShare], warn: config.knobs[LEVEL_OPTIONS.warnTimeShare] };
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
export function scoreViews(ctx: ViewContext, views: readonly string[], score: ScoreOptions, cuts: LevelCuts): ScoredView[] {
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
        return { view: name, dims, key: r.key, metrics: r.metrics, score: { metric: score.metric, value: s.value, badness: s.badness }, level: recordLevel(r.metrics.time_share, s.badness, cuts) };
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
  };
}

/**
 * The trace's I/O against its run time, as the Darshan report states it: the slowest process's time in the
 * analysed calls (the analysed layers together, one entry), its share of the span of the trace, the bytes moved.
 */
function ioSummary(cube: CubeData, ch: TraceCharacteristics, layers: readonly string[]): IoSummary {
  const perProc = new Map<number, number>();
  for (let c = 0; c < cube.cellPair.length; c++) {
    const o = c * STRIDE;
    let t = 0;
    for (let k = 0; k < CATEGORY_NAMES.length; k++) t += cube.stats[o + S_TIME + k];
    const p = cube.pairProc[cube.cellPair[c]];
    perProc.set(p, (perProc.get(p) ?? 0) + t);
  }
  let slowest = 0;
  for (const t of perProc.values()) if (t > slowest) slowest = t;
  const bytes = ch.read.bytes + ch.write.bytes;
  return {
    runTime: ch.runtime,
    ioTime: slowest,
    ioShare: ch.runtime > 0 ? Math.min(1, slowest / ch.runtime) : null,
    bytes,
    layers: layers.length
      ? [{ layer: layers.join('+'), bytesRead: ch.read.bytes, bytesWritten: ch.write.bytes, cumulativeTime: ch.ioTime, slowestRankTime: slowest, throughput: slowest > 0 ? bytes / slowest : null }]
      : [],
  };
}

/** Unix seconds as ISO 8601 of the whole second ('' when unknown). */
function isoSecond(sec: number | null): string {
  if (sec === null || !Number.isFinite(sec)) return '';
  const d = new Date(Math.floor(sec) * 1000);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace('.000Z', 'Z');
}

function jobInfo(paths: readonly string[], ch: TraceCharacteristics, cube: CubeData, read: ReadResult, opts: TraceReportOptions): JobInfo {
  const base = read.timeOrigin ?? (opts.epochTimes ? 0 : null);
  const known = base !== null && Number.isFinite(cube.minStart);
  const start = known ? base + cube.minStart : null;
  const end = known ? base + cube.maxEnd : null;
  const command = opts.job?.command ?? '';
  const name = (p: string) => p.replace(/\/+$/, '').split('/').pop() || p;
  return {
    jobId: opts.job?.jobId ?? '',
    exe: command.trim().split(/\s+/)[0] ?? '',
    command,
    logName: paths.length === 0 ? '' : paths.length === 1 ? name(paths[0]) : `${name(paths[0])} and ${paths.length - 1} more`,
    uid: opts.job?.uid ?? '',
    startTime: { epochSeconds: start ?? 0, iso: isoSecond(start) },
    endTime: { epochSeconds: end ?? 0, iso: isoSecond(end) },
    durationSeconds: ch.runtime,
    processes: opts.job?.processes ?? ch.processes,
    nodes: { count: null, source: null },
    files: { total: ch.files, stdio: 0, posix: 0, posixOnly: 0, mpiio: 0 },
    hints: { raw: null, entries: [], source: 'none' },
    modules: Object.keys(ch.callsByLayer),
    darshanVersion: '',
  };
}

function emptyByLevel(): Record<Level, number> {
  return Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<Level, number>;
}

/** Builds the report of a trace from its merged cube: characteristics, scored views, trace checks' findings, coverage. */
export function buildTraceReport(cube: CubeData, dicts: TraceDicts, read: ReadResult, paths: readonly string[], opts: TraceReportOptions): Report {
  const span = Number.isFinite(cube.maxEnd - cube.minStart) ? cube.maxEnd - cube.minStart : 0;
  let granularity = opts.granularity ?? defaultGranularity(span, cube.base);
  if (granularity < cube.base) granularity = cube.base;
  granularity = Number((Math.round(granularity / cube.base) * cube.base).toPrecision(12));
  // the views add up the cube's cells summed into their own windows (a base finer than the granularity holds several
  // cells per record and window, each visited by every time view)
  const widened = granularity > cube.base ? mergeCubes([{ data: cube, ...identityMaps(dicts) }], granularity) : cube;
  const ctx = new ViewContext(widened, dicts, granularity);
  const metric = METRICS[opts.metric];
  const threshold = opts.threshold ?? metric.defaultThreshold;
  const knobs = opts.config.knobs;
  const cuts = levelCuts(opts.config);
  const scored = scoreViews(ctx, opts.views, { metric: opts.metric, threshold, minTimeShare: knobs.trace_min_time_share }, cuts);
  const gaps = [...(opts.gaps ?? [])];
  const run = runTraceChecks(opts.checks, scored, { config: opts.config, cuts, gaps, ...(opts.skipped ? { skipped: opts.skipped } : {}) });

  const named = new Map<string, string[]>();
  const recordId = (view: string, key: object) => `${view}\u0000${JSON.stringify(key)}`;
  for (const f of run.insights) {
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
    const flagged: ScoredRecord[] = [];
    for (const r of v.records) {
      byLevel[r.level]++;
      if (r.level !== 'OK') flagged.push(r);
    }
    flagged.sort((a, b) => byCost(a, b));
    const listed = opts.top > 0 ? flagged.slice(0, opts.top) : flagged;
    const viewExplained = flagged.filter((r) => named.has(recordId(v.name, r.key))).length;
    bottlenecks += flagged.length;
    explained += viewExplained;
    const top: Bottleneck[] = listed.map((r) => ({
      key: r.key as Record<string, string | number>,
      level: r.level,
      score: { metric: r.score.metric, value: round(r.score.value), badness: round(r.score.badness) },
      metrics: roundMetrics(r.metrics),
      findings: named.get(recordId(v.name, r.key)) ?? [],
    }));
    return { name: v.name, dims: [...v.dims], parent: v.parent, records: v.records.length, bottlenecks: flagged.length, byLevel, explained: viewExplained, top };
  });

  const ch = characteristics(ctx, read);
  const summary = { high: 0, warn: 0, ok: 0, info: 0, recommendations: 0 };
  for (const i of run.insights) {
    summary[i.level.toLowerCase() as 'high' | 'warn' | 'ok' | 'info']++;
    summary.recommendations += i.recommendations.length;
  }
  const used = new Set<Knob>([LEVEL_OPTIONS.highTimeShare, LEVEL_OPTIONS.warnTimeShare, 'trace_min_time_share']);
  for (const c of opts.checks) for (const spec of Object.values(c.meta.options as Record<string, { knob: Knob }>)) used.add(spec.knob);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'iolens', version: opts.toolVersion ?? '0.0.0' },
    mode: 'default',
    input: { format: read.format as InputFormat, paths: [...paths], events: read.events, sources: read.sources, warnings: [...read.warnings] },
    job: jobInfo(paths, ch, cube, read, opts),
    io: ioSummary(cube, ch, opts.layers),
    completeness: { complete: gaps.length === 0, modules: gaps },
    insights: run.insights,
    summary,
    thresholds: ALL_KNOB_NAMES.filter((k) => used.has(k)).map((k) => ({ knob: k, label: KNOBS[k].label, value: knobs[k], unit: KNOBS[k].unit, triggered: run.marked.has(k) })),
    checks: run.outcomes,
    notes: [...(opts.notes ?? [])],
    messages: run.messages,
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
