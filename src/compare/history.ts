import type { History, HistoryMetric, Report } from '../contract/index.js';
import { ioCells } from '../pipeline/extract.js';
import type { HistoryJob } from '../store/history.js';

/** Fewer runs than this make no outlier verdict: quartiles of a handful of runs say little. */
const MIN_RUNS = 5;
const BINS = 12;

/** The q-quantile of sorted values, linear between order statistics (numpy's default). */
function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Where a run's value stands among an application's runs: quartiles, its quantile, whether it is an outlier by
 * Tukey's fences on the log10 scale (times and rates spread multiplicatively), and a histogram with log10 bins.
 * Values that are not positive are left out of the log scale (an I/O time of 0 has no place on it).
 */
export function historyMetric(metric: HistoryMetric['metric'], values: readonly (number | null)[], value: number | null): HistoryMetric | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0).sort((a, b) => a - b);
  if (!xs.length) return null;
  const logs = xs.map(Math.log10);
  const [lq1, lq3] = [quantile(logs, 0.25), quantile(logs, 0.75)];
  const fence = 1.5 * (lq3 - lq1);
  const v = value !== null && Number.isFinite(value) && value > 0 ? value : null;
  let outlier: HistoryMetric['outlier'] = null;
  if (v !== null && xs.length >= MIN_RUNS) {
    if (Math.log10(v) > lq3 + fence) outlier = 'high';
    else if (Math.log10(v) < lq1 - fence) outlier = 'low';
  }
  const below = v === null ? null : (xs.filter((x) => x < v).length + 0.5 * xs.filter((x) => x === v).length) / xs.length;
  const lo = Math.min(logs[0], v !== null ? Math.log10(v) : Infinity), hi = Math.max(logs[logs.length - 1], v !== null ? Math.log10(v) : -Infinity);
  const width = hi > lo ? (hi - lo) / BINS : 1;
  const counts = new Array<number>(hi > lo ? BINS : 1).fill(0);
  for (const l of logs) counts[Math.min(counts.length - 1, Math.floor((l - lo) / width))]++;
  return {
    metric,
    runs: xs.length,
    min: xs[0],
    q1: 10 ** lq1,
    median: quantile(xs, 0.5),
    q3: 10 ** lq3,
    max: xs[xs.length - 1],
    value: v,
    quantile: below,
    outlier,
    bins: counts.map((count, i) => ({ low: 10 ** (lo + i * width), high: 10 ** (lo + (i + 1) * width), count })),
  };
}

/** The history's median run by I/O time among those `usable` (a file still there), the run itself excluded. */
export function medianRun(jobs: readonly HistoryJob[], exclude: string | null, usable: (j: HistoryJob) => boolean): HistoryJob | null {
  const c = jobs.filter((j) => j.hash !== exclude && j.ioTime !== null && j.ioTime > 0 && usable(j)).sort((a, b) => a.ioTime! - b.ioTime! || a.hash.localeCompare(b.hash));
  return c.length ? c[(c.length - 1) >> 1] : null;
}

/**
 * The run's place in its application's history (the run's own row, `hash`, excluded from the distribution), its
 * values taken from its report's time model as the store takes them (`ioCells`).
 */
export function runHistory(app: string, jobs: readonly HistoryJob[], hash: string | null, io: Report['io'], reference: HistoryJob | null, notes: string[]): History {
  const others = jobs.filter((j) => j.hash !== hash);
  const mibs = ioCells(io).io_mibs;
  const metrics = [
    historyMetric('io_time', others.map((j) => j.ioTime), io.ioTime),
    historyMetric('io_mibs', others.map((j) => j.ioMibs), typeof mibs === 'number' ? mibs : null),
    historyMetric('run_time', others.map((j) => j.runTime), io.runTime),
  ].filter((m): m is HistoryMetric => m !== null);
  if (others.length < MIN_RUNS) notes.push(`${others.length} other run${others.length === 1 ? '' : 's'} of ${app} in the store: too few to call this one an outlier`);
  return { app, runs: others.length, metrics, reference: reference && reference.path ? { hash: reference.hash, path: reference.path } : null, notes };
}
