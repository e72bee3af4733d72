import { quantileSorted } from './metrics.js';
import type { Table } from './table.js';

/** Thresholds of the leak guard (see `leakGuard`). */
export interface LeakGuardOptions {
  /** |Pearson r| of log values above which a feature is a near-exact function of the target or of the run time. */
  maxAbsCorrelation: number;
  /** Largest p95 − p5 spread of log10(a / (runtime · b)) for "a = rate b × the run time". */
  maxLogRatioSpread: number;
  /** Rows (with every value involved positive) a rule needs before it may judge. */
  minRows: number;
}

export const LEAK_GUARD_DEFAULTS: LeakGuardOptions = { maxAbsCorrelation: 0.995, maxLogRatioSpread: 0.02, minRows: 30 };

export interface LeakReport {
  dropped: { feature: string; reason: string }[];
}

function slogArray(col: Float64Array, rows: ArrayLike<number>): Float64Array {
  return Float64Array.from(rows, (r) => {
    const v = col[r];
    return v >= 0 ? Math.log10(1 + v) : v < 0 ? -Math.log10(1 - v) : NaN;
  });
}

/** Pearson r over positions where both values are present; NaN when fewer than `minRows` or either is constant. */
function correlation(a: Float64Array, b: Float64Array, minRows: number): number {
  let n = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === a[i] && b[i] === b[i]) {
      n++;
      sa += a[i];
      sb += b[i];
    }
  }
  if (n < minRows) return NaN;
  const ma = sa / n;
  const mb = sb / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === a[i] && b[i] === b[i]) {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) ** 2;
      sbb += (b[i] - mb) ** 2;
    }
  }
  if (saa <= 1e-24 || sbb <= 1e-24) return NaN;
  return sab / Math.sqrt(saa * sbb);
}

/** p95 − p5 of the values (NaN when fewer than `minRows`). */
function spread(v: number[], minRows: number): number {
  if (v.length < minRows) return NaN;
  const s = Float64Array.from(v).sort();
  return quantileSorted(s, 0.95) - quantileSorted(s, 0.05);
}

/**
 * Finds candidate features that leak the answer, on the training rows only. Three rules, each on the numeric
 * candidates (a string column cannot be a numeric function of the target):
 * 1. target: |r| between sign·log10(1+|x|) of the feature and log10(1 + target) above `maxAbsCorrelation`;
 * 2. run time: the same with log10(1 + run time);
 * 3. rate × window: for another candidate b, log10(a) − log10(runtime) − log10(b) is nearly constant
 *    (p95 − p5 ≤ `maxLogRatioSpread`, i.e. a/(runtime·b) varies by under ±2.3 %) over the rows where a, b and the
 *    run time are positive, while the run time itself varies (p95 − p5 of log10 runtime > 0.1). Such an `a` (node-
 *    hours = nodes × the job's window; server bytes = rate × the window) is only known once the job has ended.
 * Candidates are judged in the given order; a feature already dropped is not used as another's b.
 */
export function leakGuard(
  table: Table,
  candidates: readonly string[],
  target: string,
  runtime?: string,
  rows?: ArrayLike<number>,
  options: Partial<LeakGuardOptions> = {},
): LeakReport {
  const o = { ...LEAK_GUARD_DEFAULTS, ...options };
  const idx = rows ?? Int32Array.from({ length: table.nRows }, (_, i) => i);
  const numeric = candidates.filter((c) => table.columns[c] instanceof Float64Array);
  const tcol = table.columns[target];
  const y = tcol instanceof Float64Array ? slogArray(tcol, idx) : null;
  const rcol = runtime ? table.columns[runtime] : undefined;
  const rt = rcol instanceof Float64Array ? rcol : null;
  const dropped: LeakReport['dropped'] = [];
  const gone = new Set<string>();
  const logs = new Map(numeric.map((c) => [c, slogArray(table.columns[c] as Float64Array, idx)]));
  const rtLog = rt ? slogArray(rt, idx) : null;
  for (const c of numeric) {
    const v = logs.get(c) as Float64Array;
    if (y) {
      const r = correlation(v, y, o.minRows);
      if (Math.abs(r) > o.maxAbsCorrelation) {
        dropped.push({ feature: c, reason: `near-exact function of the target ${target} (|r| of logs ${Math.abs(r).toFixed(4)} > ${o.maxAbsCorrelation})` });
        gone.add(c);
        continue;
      }
    }
    if (rtLog && runtime) {
      const r = correlation(v, rtLog, o.minRows);
      if (Math.abs(r) > o.maxAbsCorrelation) {
        dropped.push({ feature: c, reason: `near-exact function of the run time ${runtime} (|r| of logs ${Math.abs(r).toFixed(4)} > ${o.maxAbsCorrelation})` });
        gone.add(c);
      }
    }
  }
  if (rt && runtime) {
    const rtl: number[] = [];
    for (let i = 0; i < idx.length; i++) if (rt[idx[i]] > 0) rtl.push(Math.log10(rt[idx[i]]));
    if (spread(rtl, o.minRows) > 0.1) {
      // log10 of positive values (NaN otherwise), the run time's subtracted from each candidate's.
      const lr = Float64Array.from(idx, (r) => (rt[r] > 0 ? Math.log10(rt[r]) : NaN));
      const pos = new Map(numeric.map((c) => [c, Float64Array.from(idx, (r) => ((table.columns[c] as Float64Array)[r] > 0 ? Math.log10((table.columns[c] as Float64Array)[r]) : NaN))]));
      for (const a of numeric) {
        if (gone.has(a)) continue;
        const la = pos.get(a) as Float64Array;
        for (const b of numeric) {
          if (b === a || gone.has(b)) continue;
          const lb = pos.get(b) as Float64Array;
          // A cheap look first: the spread over every k-th row (at most ~256 rows); the full spread only when that
          // one is within twice the limit.
          const step = Math.max(1, Math.floor(la.length / 256));
          const probe: number[] = [];
          for (let i = 0; i < la.length; i += step) {
            const d = la[i] - lr[i] - lb[i];
            if (d === d) probe.push(d);
          }
          if (probe.length >= Math.min(o.minRows, 8) && !(spread(probe, Math.min(o.minRows, 8)) <= 2 * o.maxLogRatioSpread)) continue;
          const ratio: number[] = [];
          for (let i = 0; i < la.length; i++) {
            const d = la[i] - lr[i] - lb[i];
            if (d === d) ratio.push(d);
          }
          const sp = spread(ratio, o.minRows);
          if (sp <= o.maxLogRatioSpread) {
            dropped.push({ feature: a, reason: `${a} ≈ ${b} × run time ${runtime} (p95−p5 of log10 ratio ${sp.toFixed(4)} ≤ ${o.maxLogRatioSpread}): known only after the job ends` });
            gone.add(a);
            break;
          }
        }
      }
    }
  }
  return { dropped };
}
