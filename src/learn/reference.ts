import type { TrainedModel } from './model-file.js';
import type { Preprocessor } from './preprocess.js';

/**
 * What an explanation measures a job against, column by column (model space). SHAP values explain
 * f(job) − f(reference); a feature whose value equals its reference gets exactly 0 (interventional SHAP), so the
 * reference decides what can be blamed at all:
 *
 * - **zero** for features where 0 means "the job did not do this" (counters: AIIO's reference), so a counter the
 *   job never used gets no blame, and one it used is weighed against not using it;
 * - **typical** (the training median; for a category, the most frequent one) for the rest: scale, configuration,
 *   server load, history. Against 0 these would be weighed against a job with no processes or an idle file system,
 *   far outside every training row, and the members that extrapolate (linear, poly-2, MLP) then make huge,
 *   cancelling contributions (exact, and meaningless);
 * - **the job's own value** (missing included) for a column (nearly) constant where the training data has it (the
 *   0.5 % and 99.5 % quantiles of its present values equal): the data cannot show what changing it does, so it is
 *   never blamed — not for its value, nor for being missing (POSIX_MEM_ALIGNMENT = 8 wherever POSIX ran).
 */

/** Whether each model column is (nearly) constant over the training rows. */
export function constantColumns(pre: Preprocessor): boolean[] {
  return pre.stats.map((s) => Number.isFinite(s.lo) && s.lo === s.hi);
}

/**
 * The typical row: each numeric column's training median, each categorical feature's most frequent category.
 * Model files written before medians were kept take them from their stored training rows (z-scores).
 */
export function typicalRow(model: TrainedModel): Float64Array {
  const pre = model.preprocessor;
  const nCols = pre.columns.length;
  const row = new Float64Array(nCols);
  const stored = pre.stats.some((s) => s.median === undefined || !Number.isFinite(s.median)) ? storedMedians(model) : null;
  for (const f of pre.features) {
    if (f.kind === 'numeric') {
      const s = pre.stats[f.column];
      row[f.column] = s.median !== undefined && Number.isFinite(s.median) ? s.median : (stored?.[f.column] ?? s.mean);
      continue;
    }
    // one-hot columns: a column's mean is the share of training rows with that value
    const width = f.categories.length + (f.other ? 1 : 0);
    let best = -1;
    for (let c = f.column; c < f.column + width; c++) if (best < 0 || pre.stats[c].mean > pre.stats[best].mean) best = c;
    if (best >= 0) row[best] = 1;
  }
  return row;
}

/** Column medians from the model's stored training rows (z-scores back to model space). */
function storedMedians(model: TrainedModel): Float64Array {
  const { rows, nRows } = model.reference;
  const pre = model.preprocessor;
  const nCols = pre.columns.length;
  const out = new Float64Array(nCols).fill(NaN);
  const buf = new Float64Array(nRows);
  for (let c = 0; c < nCols; c++) {
    for (let r = 0; r < nRows; r++) buf[r] = rows[r * nCols + c];
    const sorted = buf.slice(0, nRows).sort();
    if (nRows) out[c] = sorted[(nRows - 1) >> 1] * pre.stats[c].std + pre.stats[c].mean;
  }
  return out;
}

/** How `referenceRow` picks each feature's reference (per feature, the preprocessor's order). */
export interface ReferenceChoice {
  /** 0 is the reference (else the typical value). */
  readonly zeroFeatures: readonly boolean[];
  /** Counters: a job's 0 is weighed against 0 whatever the reference (what a job did not do is never a cause). */
  readonly counters?: readonly boolean[];
}

/**
 * The reference row for explaining `x` (one row in model space), feature by feature:
 * - a value the model does not know — a numeric NaN, a categorical missing or unseen in training (no kept category,
 *   or the empty one) — is its own reference: what is not known is never a cause, nor a column the table lacks;
 * - a feature (nearly) constant in training (for a categorical: all its one-hot columns) is its own reference;
 * - a counter (`counters`) at 0 is weighed against 0;
 * - otherwise 0 (`zeroFeatures`) or the typical value (a categorical: its most frequent category, all its columns).
 */
export function referenceRow(model: TrainedModel, x: Float64Array, choice: ReferenceChoice | readonly boolean[], typical: Float64Array = typicalRow(model)): Float64Array {
  const { zeroFeatures, counters } = isChoice(choice) ? choice : { zeroFeatures: choice, counters: undefined };
  const pre = model.preprocessor;
  const row = new Float64Array(pre.columns.length);
  const constant = constantColumns(pre);
  pre.features.forEach((f, fi) => {
    if (f.kind === 'numeric') {
      const c = f.column;
      const v = x[c];
      row[c] = constant[c] || Number.isNaN(v) ? v : counters?.[fi] && v === 0 ? 0 : zeroFeatures[fi] ? 0 : typical[c];
      return;
    }
    const width = f.categories.length + (f.other ? 1 : 0);
    let hot = -1;
    let allConstant = true;
    for (let i = 0; i < width; i++) {
      if (x[f.column + i] === 1) hot = i;
      if (!constant[f.column + i]) allConstant = false;
    }
    const unknown = hot < 0 || (hot < f.categories.length && f.categories[hot] === '');
    const own = allConstant || unknown;
    for (let i = 0; i < width; i++) row[f.column + i] = own ? x[f.column + i] : zeroFeatures[fi] ? 0 : typical[f.column + i];
  });
  return row;
}

function isChoice(c: ReferenceChoice | readonly boolean[]): c is ReferenceChoice {
  return !Array.isArray(c);
}
