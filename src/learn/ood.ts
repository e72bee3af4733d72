import { nearest, zScores } from './knn.js';
import type { Encoded, Preprocessor } from './preprocess.js';

/**
 * What "outside the training data" means for a model, fitted on the training rows and calibrated on validation rows
 * (never on test rows). A row is out of distribution when any of three checks fires:
 * 1. a categorical value the model has no column for, in a feature whose validation rows showed such values on
 *    at most `noveltyExpectedRate` of rows (a feature like a path holding a job id is new on every row: there a
 *    new value is normal and not flagged);
 * 2. more numeric features outside their robust training range [p0.5 − margin, p99.5 + margin] (margin = 10 % of
 *    max(p99.5 − p0.5, std), in model space) than `maxOutOfRange`, the 99th percentile of that count on validation;
 * 3. a Euclidean distance in standardised space to the nearest reference training row above `distanceThreshold`,
 *    the 99th percentile of validation rows' distances to the fitted part's reference rows.
 */
export interface OodModel {
  ranges: { column: number; lo: number; hi: number }[];
  maxOutOfRange: number;
  distanceThreshold: number;
  /** Per categorical feature: share of validation rows with a value the fitted part had no column for. */
  novelty: { feature: string; validationRate: number; flagged: boolean }[];
  noveltyExpectedRate: number;
  quantile: number;
}

export interface OodResult {
  ood: boolean[];
  reasons: string[][];
  /** Out by its values (more features beyond the training range than validation rows have, or far from every
   * training row), as against only an unseen category: the members that extrapolate then see the row clamped. */
  beyond: boolean[];
  /** Distance to the nearest reference row (standardised space). */
  distance: Float64Array;
}

/** Robust ranges of the numeric columns from the training statistics. */
export function numericRanges(pre: Preprocessor): OodModel['ranges'] {
  const out: OodModel['ranges'] = [];
  for (const f of pre.features) {
    if (f.kind !== 'numeric') continue;
    const s = pre.stats[f.column];
    if (!Number.isFinite(s.lo)) continue;
    const margin = 0.1 * Math.max(s.hi - s.lo, s.std === 1 && s.hi === s.lo ? 0 : s.std);
    out.push({ column: f.column, lo: s.lo - margin, hi: s.hi + margin });
  }
  return out;
}

function outOfRange(ranges: OodModel['ranges'], data: Float64Array, nCols: number, r: number): number[] {
  const cols: number[] = [];
  for (const g of ranges) {
    const v = data[r * nCols + g.column];
    if (v < g.lo || v > g.hi) cols.push(g.column);
  }
  return cols;
}

function quantileHigh(values: ArrayLike<number>, q: number): number {
  const s = Float64Array.from(values).sort();
  if (s.length === 0) return Infinity;
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

/**
 * Calibrates the checks: `preFit`/`reference` describe the part of the training rows models were fitted on,
 * `valid` the validation rows encoded with `preFit`.
 */
export function calibrateOod(
  preFit: Preprocessor,
  reference: { rows: Float32Array; n: number },
  valid: Encoded,
  options: { quantile?: number; noveltyExpectedRate?: number } = {},
): Omit<OodModel, 'ranges'> {
  const quantile = options.quantile ?? 0.99;
  const noveltyExpectedRate = options.noveltyExpectedRate ?? 0.01;
  const m = valid.matrix;
  const ranges = numericRanges(preFit);
  const counts = Float64Array.from({ length: m.nRows }, (_, r) => outOfRange(ranges, m.data, m.nCols, r).length);
  const z = zScores(m, preFit.stats.map((s) => s.mean), preFit.stats.map((s) => s.std));
  const nb = nearest(reference.rows, m.nCols, z, m.nRows, 1);
  const dist = Float64Array.from(nb.dist2, Math.sqrt);
  const novelty = preFit.features
    .filter((f) => f.kind === 'categorical')
    .map((f) => {
      const rate = m.nRows ? valid.unseen.filter((u) => u?.includes(f.name)).length / m.nRows : 0;
      return { feature: f.name, validationRate: rate, flagged: rate <= noveltyExpectedRate };
    });
  return { maxOutOfRange: quantileHigh(counts, quantile), distanceThreshold: quantileHigh(dist, quantile), novelty, noveltyExpectedRate, quantile };
}

/** Scores rows (encoded with the final preprocessor) against the model's OOD checks and reference rows. */
export function scoreOod(model: OodModel, pre: Preprocessor, enc: Encoded, reference: { rows: Float32Array; n: number }): OodResult {
  const m = enc.matrix;
  const flagged = new Set(model.novelty.filter((n) => n.flagged).map((n) => n.feature));
  const z = zScores(m, pre.stats.map((s) => s.mean), pre.stats.map((s) => s.std));
  const nb = nearest(reference.rows, m.nCols, z, m.nRows, 1);
  const ood: boolean[] = [];
  const reasons: string[][] = [];
  const beyond: boolean[] = [];
  const distance = new Float64Array(m.nRows);
  for (let r = 0; r < m.nRows; r++) {
    const why: string[] = [];
    for (const f of enc.unseen[r] ?? []) if (flagged.has(f)) why.push(`unseen category in ${f}`);
    const out = outOfRange(model.ranges, m.data, m.nCols, r);
    if (out.length > model.maxOutOfRange) {
      const names = out.slice(0, 5).map((c) => pre.columns[c]);
      why.push(`${out.length} feature${out.length > 1 ? 's' : ''} outside the training range (${names.join(', ')}${out.length > 5 ? ', …' : ''})`);
    }
    distance[r] = Math.sqrt(nb.dist2[r]);
    if (distance[r] > model.distanceThreshold) {
      why.push(`far from every training row (distance ${distance[r].toFixed(2)} > ${model.distanceThreshold.toFixed(2)})`);
    }
    beyond.push(out.length > model.maxOutOfRange || distance[r] > model.distanceThreshold);
    ood.push(why.length > 0);
    reasons.push(why);
  }
  return { ood, reasons, beyond, distance };
}

/**
 * The rows `which` of a matrix with every numeric column clamped into its OOD range (the robust training range and
 * its margin): what the members that extrapolate (linear, poly-2, MLP, kNN) see of a row beyond the data. A missing
 * value stays missing; other rows are copied as they are.
 */
export function clampToRanges(model: OodModel, m: { nRows: number; nCols: number; data: Float64Array }, which: readonly boolean[]): { nRows: number; nCols: number; data: Float64Array } {
  const data = Float64Array.from(m.data);
  for (let r = 0; r < m.nRows; r++) {
    if (!which[r]) continue;
    for (const g of model.ranges) {
      const i = r * m.nCols + g.column;
      if (data[i] < g.lo) data[i] = g.lo;
      else if (data[i] > g.hi) data[i] = g.hi;
    }
  }
  return { nRows: m.nRows, nCols: m.nCols, data };
}

/** One row clamped into the OOD ranges (a reference row for a clamped member's explanation). */
export function clampRow(model: OodModel, row: Float64Array): Float64Array {
  return clampToRanges(model, { nRows: 1, nCols: row.length, data: row }, [true]).data;
}
