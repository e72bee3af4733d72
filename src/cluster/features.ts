// Feature preparation for clustering jobs, and per-cluster descriptions: signed log transform, robust
// standardisation, column medians/IQRs of a set of rows, and the one-threshold rule that best tells a cluster from
// its sibling. Matrices are n × d, row-major Float64Array.
import { quantileSorted } from '../util/stats.js';

/** sign(x)·log10(1 + |x|): counters spanning many decades become comparable; 0 stays 0, the sign is kept. */
export function signedLog10(x: number): number {
  return x < 0 ? -Math.log10(1 - x) : Math.log10(1 + x);
}

/** signedLog10 applied to every value (a new matrix). */
export function signedLog10Matrix(data: Float64Array): Float64Array {
  return Float64Array.from(data, signedLog10);
}

/** Per-column location and scale used by robustStandardize. */
export interface RobustScaling {
  center: Float64Array;
  scale: Float64Array;
  /** Which statistic gave each column's scale: 'iqr', 'std' (IQR was 0) or 'none' (constant column, scale 1). */
  scaleKind: ('iqr' | 'std' | 'none')[];
}

/**
 * Per column: centre = median, scale = interquartile range; where the IQR is 0 (over half the rows equal, common for
 * counters that are mostly zero) the standard deviation, and 1 for a constant column.
 */
export function robustScaling(data: Float64Array, n: number, d: number): RobustScaling {
  const center = new Float64Array(d);
  const scale = new Float64Array(d);
  const scaleKind: RobustScaling['scaleKind'] = [];
  const col = new Float64Array(n);
  for (let j = 0; j < d; j++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += col[i] = data[i * d + j];
    col.sort();
    center[j] = quantileSorted(col, 0.5);
    const iqr = quantileSorted(col, 0.75) - quantileSorted(col, 0.25);
    if (iqr > 0) {
      scale[j] = iqr;
      scaleKind.push('iqr');
      continue;
    }
    const mean = sum / n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (col[i] - mean) ** 2;
    const sd = Math.sqrt(ss / n);
    scale[j] = sd > 0 ? sd : 1;
    scaleKind.push(sd > 0 ? 'std' : 'none');
  }
  return { center, scale, scaleKind };
}

/** (x − centre) / scale per column, with a scaling from robustScaling (computed on these rows when not given). */
export function robustStandardize(data: Float64Array, n: number, d: number, scaling = robustScaling(data, n, d)): Float64Array {
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) out[i * d + j] = (data[i * d + j] - scaling.center[j]) / scaling.scale[j];
  }
  return out;
}

/** Median, quartiles and IQR of every column over some rows (for cluster summaries). */
export interface ColumnSummary {
  median: Float64Array;
  q1: Float64Array;
  q3: Float64Array;
  iqr: Float64Array;
}

export function columnSummary(data: Float64Array, d: number, rows: ArrayLike<number>): ColumnSummary {
  const m = rows.length;
  const s: ColumnSummary = { median: new Float64Array(d), q1: new Float64Array(d), q3: new Float64Array(d), iqr: new Float64Array(d) };
  const col = new Float64Array(m);
  for (let j = 0; j < d; j++) {
    for (let k = 0; k < m; k++) col[k] = data[rows[k] * d + j];
    col.sort();
    s.median[j] = quantileSorted(col, 0.5);
    s.q1[j] = quantileSorted(col, 0.25);
    s.q3[j] = quantileSorted(col, 0.75);
    s.iqr[j] = s.q3[j] - s.q1[j];
  }
  return s;
}

/** The single threshold on one column that best separates a cluster's rows from its sibling's. */
export interface SplitRule {
  /** Column index. */
  feature: number;
  /** A value that occurs in the data: the rule is `value <= threshold` or `value > threshold`. */
  threshold: number;
  direction: '<=' | '>';
  /** Share of the node's rows that satisfy the rule. */
  shareInNode: number;
  /** Share of the sibling's rows that satisfy it. */
  shareInSibling: number;
  /** (shareInNode + 1 − shareInSibling) / 2. */
  balancedAccuracy: number;
}

/**
 * Searches every column and every cut between distinct values for the rule with the highest balanced accuracy
 * (ties: the earlier column, then the smaller threshold). Thresholds are in the units of `data`, so pass the raw
 * (untransformed) features to get words like "≤ 4096 bytes per op". Returns null when no column separates at all
 * (e.g. all columns constant) or either side is empty.
 */
export function oneSplitRule(data: Float64Array, d: number, nodeRows: ArrayLike<number>, siblingRows: ArrayLike<number>, columns?: ArrayLike<number>): SplitRule | null {
  const a = nodeRows.length;
  const b = siblingRows.length;
  if (a === 0 || b === 0) return null;
  const m = a + b;
  const vals = new Float64Array(m);
  const idx = new Int32Array(m);
  let best: SplitRule | null = null;
  const cols = columns ?? Int32Array.from({ length: d }, (_, j) => j);
  for (let c = 0; c < cols.length; c++) {
    const j = cols[c];
    for (let k = 0; k < a; k++) vals[k] = data[nodeRows[k] * d + j];
    for (let k = 0; k < b; k++) vals[a + k] = data[siblingRows[k] * d + j];
    for (let k = 0; k < m; k++) idx[k] = k;
    idx.sort((p, q) => vals[p] - vals[q] || p - q);
    let inNode = 0;
    let inSib = 0;
    for (let k = 0; k < m - 1; k++) {
      if (idx[k] < a) inNode++;
      else inSib++;
      const v = vals[idx[k]];
      if (v === vals[idx[k + 1]]) continue; // cut only between distinct values
      const sn = inNode / a;
      const ss = inSib / b;
      const ba = 0.5 + Math.abs(sn - ss) / 2;
      if (best === null || ba > best.balancedAccuracy) {
        const le = sn >= ss;
        best = {
          feature: j,
          threshold: v,
          direction: le ? '<=' : '>',
          shareInNode: le ? sn : 1 - sn,
          shareInSibling: le ? ss : 1 - ss,
          balancedAccuracy: ba,
        };
      }
    }
  }
  return best;
}
