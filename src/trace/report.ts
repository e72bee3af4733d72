import { CATEGORY_NAMES, LAYER_NAMES, type TraceDicts } from './model.js';
import { S_BYTES, S_OPS, S_TIME, STRIDE, type CubeData } from './cube.js';
import type { ReadResult } from './readers/types.js';
import { BUILTIN_RULES } from './rules/builtin/index.js';
import type { Reason, Rule } from './rules/types.js';
import { levelBoundaries, METRICS, scoreRecord, severityRank, SEVERITIES, type MetricId, type Severity } from './score.js';
import {
  computeView, defaultGranularity, firstDimIds, parseView, ViewContext, viewName, type Dim, type Metrics, type ViewRecord,
} from './views.js';

export const REPORT_SCHEMA = 'iolens.trace/1';

export interface ReportOptions {
  views: readonly string[];
  metric: MetricId;
  threshold?: number;
  minTimeShare: number;
  granularity?: number;
  smallBytes: number;
  rules: readonly Rule[];
  /** bottlenecks listed per view (0 = all) */
  top: number;
  layers: readonly string[];
}

export interface CategoryStats {
  ops: number;
  bytes: number;
  time: number;
  ops_share: number;
  bytes_share: number;
  time_share: number;
}

export interface Characteristics {
  runtime: number;
  io_time: number;
  ops: number;
  bytes: number;
  read: CategoryStats;
  write: CategoryStats;
  metadata: CategoryStats;
  sync: CategoryStats;
  other: CategoryStats;
  processes: number;
  files: number;
  hosts: number;
  apps: number;
  events_total: number;
  events_analyzed: number;
  calls_by_layer: Record<string, number>;
  calls_by_function: Record<string, number>;
}

export interface Bottleneck {
  key: ViewRecord['key'];
  severity: Severity;
  score: number;
  value: number;
  metrics: Metrics;
  reasons: Reason[];
}

export interface ViewReport {
  name: string;
  dims: Dim[];
  parent: string | null;
  records: number;
  bottlenecks: number;
  by_severity: Record<Severity, number>;
  explained: number;
  top: Bottleneck[];
}

export interface TraceReport {
  schema: typeof REPORT_SCHEMA;
  input: {
    paths: string[];
    format: ReadResult['format'];
    events: number;
    sources: number;
    warnings: string[];
    time_origin: number | null;
    details: Record<string, unknown>;
  };
  options: {
    views: string[];
    layers: string[];
    granularity: number;
    small_bytes: number;
    min_time_share: number;
    top: number;
  };
  severity: {
    metric: MetricId;
    description: string;
    unit: string;
    threshold: number;
    levels: { severity: Severity; upTo: number | null }[];
  };
  characteristics: Characteristics;
  views: ViewReport[];
  rules: {
    builtin: { id: string; title: string; description: string }[];
    user: { id: string; title: string; description: string }[];
    coverage: { bottlenecks: number; explained: number; share: number };
  };
}

function catStats(cube: CubeData, k: number, totals: { ops: number; bytes: number; time: number }): CategoryStats {
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
  return { ops, bytes, time, ops_share: sh(ops, totals.ops), bytes_share: sh(bytes, totals.bytes), time_share: sh(time, totals.time) };
}

function characteristics(ctx: ViewContext, read: ReadResult): Characteristics {
  const cube = ctx.cube;
  const d = ctx.dicts;
  const t = ctx.totals;
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
  const [r, w, m, s, o] = CATEGORY_NAMES.map((_, k) => catStats(cube, k, t));
  return {
    runtime: Number.isFinite(cube.maxEnd - cube.minStart) ? cube.maxEnd - cube.minStart : 0,
    io_time: t.time,
    ops: t.ops,
    bytes: t.bytes,
    read: r,
    write: w,
    metadata: m,
    sync: s,
    other: o,
    processes: procs.size,
    files: files.size,
    hosts: hosts.size,
    apps: apps.size,
    events_total: read.events,
    events_analyzed: cube.events,
    calls_by_layer: byLayer,
    calls_by_function: Object.fromEntries(calls),
  };
}

function emptyBySeverity(): Record<Severity, number> {
  return Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
}

/** Builds the report from a merged cube: characteristics, views, severities, reasons, coverage. */
export function buildReport(
  cube: CubeData,
  dicts: TraceDicts,
  read: ReadResult,
  paths: readonly string[],
  opts: ReportOptions,
): TraceReport {
  const span = Number.isFinite(cube.maxEnd - cube.minStart) ? cube.maxEnd - cube.minStart : 0;
  let granularity = opts.granularity ?? defaultGranularity(span, cube.base);
  if (granularity < cube.base) granularity = cube.base;
  granularity = Math.round(granularity / cube.base) * cube.base;
  granularity = Number(granularity.toPrecision(12));
  const ctx = new ViewContext(cube, dicts, granularity);
  const metric = METRICS[opts.metric];
  const threshold = opts.threshold ?? metric.defaultThreshold;
  const scoreOpts = { metric: opts.metric, threshold, minTimeShare: opts.minTimeShare };
  const views: ViewReport[] = [];
  const flagged = new Map<string, { records: ViewRecord[]; severities: Severity[] }>();
  let totalBottlenecks = 0;
  let totalExplained = 0;
  const order = [...opts.views].map((v) => parseView(v));
  for (const dims of order) {
    const name = viewName(dims);
    let allowed: Set<number> | undefined;
    let parent: string | undefined;
    if (dims.length > 1) {
      parent = viewName(dims.slice(0, dims.length - 1));
      let pv = flagged.get(parent);
      if (!pv) {
        // compute the parent silently when it was not requested
        const pr = computeView(ctx, dims.slice(0, dims.length - 1));
        pv = { records: pr.records, severities: pr.records.map((r) => scoreRecord(r.metrics, scoreOpts).severity) };
        flagged.set(parent, pv);
      }
      const keep = new Set(pv.records.filter((_, i) => pv!.severities[i] !== 'none'));
      allowed = firstDimIds(ctx, { name: parent, dims: [dims[0]], records: [...keep].map((r) => ({ key: { [dims[0]]: r.key[dims[0]] }, metrics: r.metrics })) }, () => true);
    }
    const vr = computeView(ctx, dims, allowed, parent);
    let records = vr.records;
    if (dims.length > 2 && parent) {
      const pv = flagged.get(parent)!;
      const keys = new Set(pv.records.filter((_, i) => pv.severities[i] !== 'none').map((r) => JSON.stringify(dims.slice(0, -1).map((d) => r.key[d]))));
      records = records.filter((r) => keys.has(JSON.stringify(dims.slice(0, -1).map((d) => r.key[d]))));
    }
    const severities: Severity[] = [];
    const bySeverity = emptyBySeverity();
    const bottlenecks: Bottleneck[] = [];
    let explained = 0;
    for (const r of records) {
      const sc = scoreRecord(r.metrics, scoreOpts);
      severities.push(sc.severity);
      bySeverity[sc.severity]++;
      if (sc.severity === 'none') continue;
      const reasons: Reason[] = [];
      const rctx = { dims, key: r.key, smallBytes: opts.smallBytes };
      for (const rule of opts.rules) for (const message of rule.explain(r.metrics, rctx)) reasons.push({ rule: rule.id, message });
      if (reasons.length > 0) explained++;
      bottlenecks.push({ key: r.key, severity: sc.severity, score: round(sc.badness), value: round(sc.value), metrics: roundMetrics(r.metrics), reasons });
    }
    flagged.set(name, { records, severities });
    bottlenecks.sort((a, b) => b.score - a.score || b.metrics.time - a.metrics.time || severityRank(b.severity) - severityRank(a.severity));
    totalBottlenecks += bottlenecks.length;
    totalExplained += explained;
    views.push({
      name,
      dims: [...dims],
      parent: parent ?? null,
      records: records.length,
      bottlenecks: bottlenecks.length,
      by_severity: bySeverity,
      explained,
      top: opts.top > 0 ? bottlenecks.slice(0, opts.top) : bottlenecks,
    });
  }
  const ruleInfo = (r: Rule) => ({ id: r.id, title: r.title, description: r.description });
  return {
    schema: REPORT_SCHEMA,
    input: {
      paths: [...paths],
      format: read.format,
      events: read.events,
      sources: read.sources,
      warnings: read.warnings,
      time_origin: read.timeOrigin ?? null,
      details: read.details ?? {},
    },
    options: {
      views: views.map((v) => v.name),
      layers: [...opts.layers],
      granularity,
      small_bytes: opts.smallBytes,
      min_time_share: opts.minTimeShare,
      top: opts.top,
    },
    severity: {
      metric: opts.metric,
      description: metric.description,
      unit: metric.unit,
      threshold,
      levels: levelBoundaries(opts.metric, threshold),
    },
    characteristics: characteristics(ctx, read),
    views,
    rules: {
      builtin: opts.rules.filter((r) => r.source === 'builtin').map(ruleInfo),
      user: opts.rules.filter((r) => r.source === 'user').map(ruleInfo),
      coverage: {
        bottlenecks: totalBottlenecks,
        explained: totalExplained,
        share: totalBottlenecks > 0 ? round(totalExplained / totalBottlenecks) : 1,
      },
    },
  };
}

function round(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(9)) : 0;
}

function roundMetrics(m: Metrics): Metrics {
  const out = {} as Metrics;
  for (const k of Object.keys(m) as (keyof Metrics)[]) out[k] = round(m[k]);
  return out;
}

export { BUILTIN_RULES };
