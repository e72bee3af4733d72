import type { Evidence, Level, MetricScore, Unit } from '../contract/index.js';
import type { Dim } from './view-catalogue.js';
import type { Metrics } from './views.js';

/** A view record after scoring: its key, metrics, metric score and level. */
export interface ScoredRecord {
  readonly view: string;
  readonly dims: readonly Dim[];
  readonly key: Readonly<Partial<Record<Dim, string | number>>>;
  readonly metrics: Metrics;
  readonly score: MetricScore;
  /** OK when the metric does not flag the record; else HIGH/WARN/INFO by what its calls cost the job (the level rule). */
  readonly level: Level;
}

/** One view of the trace, every record scored. */
export interface ScoredView {
  readonly name: string;
  readonly dims: readonly Dim[];
  readonly parent: string | null;
  readonly records: readonly ScoredRecord[];
}

/** What the trace checks judge: every computed view in report order, and their flagged records (level ≠ OK). */
export interface TraceViews {
  readonly views: readonly ScoredView[];
  readonly flagged: readonly ScoredRecord[];
}

/**
 * Scoring of view records. A metric (`--metric`) says whether a record is a bottleneck — whether its calls are
 * slower than their share of the work — and how far beyond its threshold it is (`badness`, 0 … 1). What the record
 * costs (its share of the trace's I/O time) then decides its level (`recordLevel`). The metric score stays in the
 * report as evidence.
 */

export type MetricId = 'iops_slope' | 'time' | 'bw';

export interface MetricDef {
  id: MetricId;
  description: string;
  unit: string;
  defaultThreshold: number;
  /** value of the metric for a record */
  value(m: Metrics): number;
  /** badness in [0, 1] for a value and threshold; 0 = not a bottleneck */
  badness(value: number, threshold: number): number;
  /** records for which the metric is meaningful */
  applies(m: Metrics): boolean;
  /** Checks a threshold given by the user; returns why it is unusable, or null. */
  invalidThreshold(t: number): string | null;
}

const MIB = 1024 * 1024;

export const METRICS: Record<MetricId, MetricDef> = {
  iops_slope: {
    id: 'iops_slope',
    description:
      'WisIO IOPS slope: angle in degrees of the point (share of operations, share of I/O time); above the threshold a record takes more of the I/O time than its share of operations',
    unit: '°',
    defaultThreshold: 45,
    value: (m) => (Math.atan2(m.time_share, m.ops_share) * 180) / Math.PI,
    badness: (v, t) => (v > t + 1e-9 ? Math.min(1, (v - t) / (90 - t)) : 0),
    applies: (m) => m.ops > 0 && m.time > 0,
    invalidThreshold: (t) => (t >= 90 ? 'the IOPS slope threshold must be below 90 degrees' : null),
  },
  time: {
    id: 'time',
    description: 'share of the total I/O time spent in the record, in percent',
    unit: '%',
    defaultThreshold: 5,
    value: (m) => m.time_share * 100,
    badness: (v, t) => (v > t + 1e-9 ? Math.min(1, (v - t) / (100 - t)) : 0),
    applies: (m) => m.time > 0,
    invalidThreshold: (t) => (t >= 100 ? 'the time-share threshold must be below 100 (%)' : null),
  },
  bw: {
    id: 'bw',
    description: 'bandwidth of the read and write calls in MiB/s; below the threshold a record is slow',
    unit: 'MiB/s',
    defaultThreshold: 100,
    value: (m) => m.bandwidth / MIB,
    badness: (v, t) => (v < t - 1e-9 ? Math.min(1, (t - v) / t) : 0),
    applies: (m) => m.data_ops > 0 && m.data_time > 0,
    invalidThreshold: (t) => (t <= 0 ? 'the bandwidth threshold must be above 0 MiB/s' : null),
  },
};

export interface ScoreOptions {
  metric: MetricId;
  threshold: number;
  /** Records with a smaller share of the I/O time are never bottlenecks (noise filter). */
  minTimeShare: number;
}

export interface Score {
  value: number;
  badness: number;
}

export function scoreRecord(m: Metrics, opts: ScoreOptions): Score {
  const def = METRICS[opts.metric];
  if (!def.applies(m)) return { value: 0, badness: 0 };
  const value = def.value(m);
  let badness = def.badness(value, opts.threshold);
  if (m.time_share < opts.minTimeShare) badness = 0;
  return { value, badness };
}

/** Shares of the trace's I/O time from which a flagged record (or a trace finding) is HIGH or WARN. */
export interface LevelCuts {
  readonly high: number;
  readonly warn: number;
}

/**
 * The level rule (docs/trace.md): a share of the I/O time of at least `high` is HIGH, at least `warn` WARN, less
 * INFO. Used for flagged view records (with their own share) and for trace findings (with the share of the records
 * they name). Monotone in the share: a record that costs less is never above one that costs more.
 */
export function costLevel(timeShare: number, cuts: LevelCuts): Level {
  if (timeShare >= cuts.high) return 'HIGH';
  if (timeShare >= cuts.warn) return 'WARN';
  return 'INFO';
}

/** The level of a view record: OK when its metric does not flag it, else by what it costs. */
export function recordLevel(timeShare: number, badness: number, cuts: LevelCuts): Level {
  return badness > 0 ? costLevel(timeShare, cuts) : 'OK';
}

const EVIDENCE_UNIT: Record<MetricId, { unit: Unit; scale: number }> = {
  iops_slope: { unit: 'degrees', scale: 1 },
  time: { unit: 'percent', scale: 1 },
  bw: { unit: 'bytes/s', scale: MIB },
};

/** A record's metric score as finding evidence: the metric's value (in a contract unit) and its badness. */
export function scoreEvidence(score: MetricScore, of: string): Evidence[] {
  const u = EVIDENCE_UNIT[score.metric as MetricId] ?? { unit: 'count', scale: 1 };
  return [
    { name: score.metric, value: score.value * u.scale, unit: u.unit, source: `${score.metric} of ${of}` },
    { name: 'badness', value: score.badness, unit: 'ratio', source: `${score.metric} badness (0 at the threshold, 1 worst) of ${of}` },
  ];
}
