import type { Metrics } from './views.js';

/**
 * Severity by metric, independent of any rule. Each metric maps a view record to a value and a "badness" in [0, 1]
 * relative to its threshold; badness is cut into eight levels with fixed boundaries (see `LEVEL_BOUNDS`).
 */
export const SEVERITIES = ['none', 'trivial', 'very low', 'low', 'medium', 'high', 'very high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * Upper bounds of badness for trivial … very high (critical is above the last). Badness 0 (at or below the threshold)
 * is `none`. For the default IOPS-slope threshold of 45° these are 50°, 55°, 60°, 65°, 70° and 80°.
 */
export const LEVEL_BOUNDS = [1 / 9, 2 / 9, 3 / 9, 4 / 9, 5 / 9, 7 / 9] as const;

export function severityOf(badness: number): Severity {
  if (!(badness > 0)) return 'none';
  for (let i = 0; i < LEVEL_BOUNDS.length; i++) if (badness <= LEVEL_BOUNDS[i] + 1e-12) return SEVERITIES[i + 1];
  return 'critical';
}

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

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
  },
  time: {
    id: 'time',
    description: 'share of the total I/O time spent in the record, in percent',
    unit: '%',
    defaultThreshold: 5,
    value: (m) => m.time_share * 100,
    badness: (v, t) => (v > t + 1e-9 ? Math.min(1, (v - t) / (100 - t)) : 0),
    applies: (m) => m.time > 0,
  },
  bw: {
    id: 'bw',
    description: 'bandwidth of the read and write calls in MiB/s; below the threshold a record is slow (0 MiB/s = critical)',
    unit: 'MiB/s',
    defaultThreshold: 100,
    value: (m) => m.bandwidth / MIB,
    badness: (v, t) => (v < t - 1e-9 ? Math.min(1, (t - v) / t) : 0),
    applies: (m) => m.data_ops > 0 && m.data_time > 0,
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
  severity: Severity;
}

export function scoreRecord(m: Metrics, opts: ScoreOptions): Score {
  const def = METRICS[opts.metric];
  if (!def.applies(m)) return { value: 0, badness: 0, severity: 'none' };
  const value = def.value(m);
  let badness = def.badness(value, opts.threshold);
  if (m.time_share < opts.minTimeShare) badness = 0;
  return { value, badness, severity: severityOf(badness) };
}

/** The level boundaries expressed in the metric's own unit, for documentation and the JSON report. */
export function levelBoundaries(metric: MetricId, threshold: number): { severity: Severity; upTo: number | null }[] {
  const out: { severity: Severity; upTo: number | null }[] = [];
  const span = metric === 'iops_slope' ? 90 - threshold : metric === 'time' ? 100 - threshold : threshold;
  const at = (b: number) => (metric === 'bw' ? threshold - b * span : threshold + b * span);
  out.push({ severity: 'none', upTo: threshold });
  LEVEL_BOUNDS.forEach((b, i) => out.push({ severity: SEVERITIES[i + 1], upTo: Number(at(b).toPrecision(6)) }));
  out.push({ severity: 'critical', upTo: null });
  return out;
}
