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

/** Rows used to fit bins at most (every k-th row beyond that), as scikit-learn subsamples 200,000. */
export const BIN_FIT_ROWS = 200_000;

/**
 * Fits bins on the rows of `m` (every k-th row when there are more than BIN_FIT_ROWS): a column with at most
 * `maxBins` distinct values gets one bin per value (edges at midpoints); otherwise edges at the midpoints of the
 * k/maxBins quantiles, duplicates removed.
 */
export function fitBins(m: Matrix, maxBins = MAX_VALUE_BINS): BinMapper {
  if (maxBins < 2 || maxBins > MAX_VALUE_BINS) throw new RangeError(`maxBins must be in 2…${MAX_VALUE_BINS}`);
  const step = Math.max(1, Math.ceil(m.nRows / BIN_FIT_ROWS));
  const rows = Math.ceil(m.nRows / step);
  const thresholds: Float64Array[] = [];
  // Columns are extracted a block at a time in one pass over the rows (a row's values share cache lines).
  const block = 16;
  const buf = new Float64Array(rows * Math.min(block, Math.max(1, m.nCols)));
  const count = new Int32Array(block);
  for (let c0 = 0; c0 < m.nCols; c0 += block) {
    const w = Math.min(block, m.nCols - c0);
    count.fill(0);
    for (let r = 0; r < m.nRows; r += step) {
      const o = r * m.nCols + c0;
      for (let j = 0; j < w; j++) {
        const v = m.data[o + j];
        if (v === v) buf[j * rows + count[j]++] = v;
      }
    }
    for (let j = 0; j < w; j++) thresholds.push(edgesOf(buf.subarray(j * rows, j * rows + count[j]).sort(), maxBins));
  }
  return { thresholds, nBins: Int32Array.from(thresholds, (t) => t.length + 1) };
}

/** Bin edges of one column from its sorted present values. */
function edgesOf(sorted: Float64Array, maxBins: number): Float64Array {
  const n = sorted.length;
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const edges: number[] = [];
  if (distinct <= maxBins) {
    for (let i = 1; i < n; i++) if (sorted[i] !== sorted[i - 1]) edges.push(midpoint(sorted[i - 1], sorted[i]));
  } else {
    for (let k = 1; k < maxBins; k++) {
      // The midpoint of the two order statistics around the k/maxBins quantile.
      const pos = (n - 1) * (k / maxBins);
      const e = midpoint(sorted[Math.floor(pos)], sorted[Math.ceil(pos)]);
      if (edges.length === 0 || e > edges[edges.length - 1]) edges.push(e);
    }
    // An edge equal to the largest value would leave the last bin empty.
    while (edges.length && edges[edges.length - 1] >= sorted[n - 1]) edges.pop();
  }
  return Float64Array.from(edges);
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

/** Bins every value of `m`: row by row (sequential reads and writes), then a blocked transpose for `byColumn`. */
export function applyBins(mapper: BinMapper, m: Matrix): BinnedMatrix {
  const stride = (m.nCols + 3) & ~3;
  const n = m.nRows;
  const nCols = m.nCols;
  const bins = new Uint8Array(n * stride);
  const byColumn = new Uint8Array(n * nCols);
  const thr = mapper.thresholds;
  for (let r = 0; r < n; r++) {
    const o = r * nCols;
    const ob = r * stride;
    for (let c = 0; c < nCols; c++) {
      const v = m.data[o + c];
      const t = thr[c];
      let lo = 0;
      if (v !== v) lo = t.length + 1;
      else {
        let hi = t.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (t[mid] < v) lo = mid + 1;
          else hi = mid;
        }
      }
      bins[ob + c] = lo;
    }
  }
  const blk = 256;
  for (let r0 = 0; r0 < n; r0 += blk) {
    const r1 = Math.min(n, r0 + blk);
    for (let c = 0; c < nCols; c++) {
      const base = c * n;
      for (let r = r0; r < r1; r++) byColumn[base + r] = bins[r * stride + c];
    }
  }
  return { nRows: n, nCols, stride, bins, byColumn };
}
