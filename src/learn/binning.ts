import type { Matrix } from './table.js';

/** The most value bins a column may have (a missing value takes one more slot: index `nBins[c]`, at most 255). */
export const MAX_VALUE_BINS = 255;

/**
 * Quantile bins of each model column, fitted on training rows and shared by the GBDT and the random forest.
 * A value x falls in the first bin b whose upper edge `thresholds[c][b]` is ≥ x (the last bin has no upper edge),
 * so "bin ≤ b" is exactly "x ≤ thresholds[c][b]": a split found on bins has a real-valued threshold.
 */
export interface BinMapper {
  thresholds: Float64Array[];
  /** Value bins per column (thresholds + 1). */
  nBins: Int32Array;
}

/**
 * Fits bins on the rows of `m`: a column with at most `maxBins` distinct values gets one bin per value (edges at
 * midpoints); otherwise edges at the midpoints of the k/maxBins quantiles, duplicates removed.
 */
export function fitBins(m: Matrix, maxBins = MAX_VALUE_BINS): BinMapper {
  if (maxBins < 2 || maxBins > MAX_VALUE_BINS) throw new RangeError(`maxBins must be in 2…${MAX_VALUE_BINS}`);
  const thresholds: Float64Array[] = [];
  const buf = new Float64Array(m.nRows);
  for (let c = 0; c < m.nCols; c++) {
    let n = 0;
    for (let r = 0; r < m.nRows; r++) {
      const v = m.data[r * m.nCols + c];
      if (!Number.isNaN(v)) buf[n++] = v;
    }
    const sorted = buf.subarray(0, n).sort();
    const distinct: number[] = [];
    for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]);
    const edges: number[] = [];
    if (distinct.length <= maxBins) {
      for (let i = 0; i + 1 < distinct.length; i++) edges.push(midpoint(distinct[i], distinct[i + 1]));
    } else {
      for (let k = 1; k < maxBins; k++) {
        // The midpoint of the two order statistics around the k/maxBins quantile.
        const pos = (n - 1) * (k / maxBins);
        const lo = sorted[Math.floor(pos)];
        const hi = sorted[Math.ceil(pos)];
        const e = midpoint(lo, hi);
        if (edges.length === 0 || e > edges[edges.length - 1]) edges.push(e);
      }
      // An edge equal to the largest value would leave the last bin empty.
      while (edges.length && edges[edges.length - 1] >= distinct[distinct.length - 1]) edges.pop();
    }
    thresholds.push(Float64Array.from(edges));
  }
  return { thresholds, nBins: Int32Array.from(thresholds, (t) => t.length + 1) };
}

function midpoint(a: number, b: number): number {
  const m = a + (b - a) / 2;
  // Guard against rounding onto b, which would put b in a's bin.
  return m < b ? m : a;
}

/** The bin of value `v` in column `c`; a missing value gets `nBins[c]`. */
export function binOf(mapper: BinMapper, c: number, v: number): number {
  if (Number.isNaN(v)) return mapper.nBins[c];
  const t = mapper.thresholds[c];
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Binned rows (bin index per value, `nBins[c]` for a missing value), twice: row-major bytes with `stride` bytes per row (the column count rounded up to a multiple of 4,
 * so the histogram loop reads four bins per 32-bit word; padding bytes are 0), and column-major bytes
 * (`byColumn[c * nRows + r]`) for partitioning a node's rows on one column.
 */
export interface BinnedMatrix {
  nRows: number;
  nCols: number;
  stride: number;
  bins: Uint8Array;
  byColumn: Uint8Array;
}

/** Bins every value of `m`. */
export function applyBins(mapper: BinMapper, m: Matrix): BinnedMatrix {
  const stride = (m.nCols + 3) & ~3;
  const n = m.nRows;
  const bins = new Uint8Array(n * stride);
  const byColumn = new Uint8Array(n * m.nCols);
  for (let c = 0; c < m.nCols; c++) {
    const t = mapper.thresholds[c];
    const nt = t.length;
    for (let r = 0; r < n; r++) {
      const v = m.data[r * m.nCols + c];
      let b: number;
      if (v !== v) b = nt + 1;
      else {
        let lo = 0;
        let hi = nt;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (t[mid] < v) lo = mid + 1;
          else hi = mid;
        }
        b = lo;
      }
      bins[r * stride + c] = b;
      byColumn[c * n + r] = b;
    }
  }
  return { nRows: n, nCols: m.nCols, stride, bins, byColumn };
}
