import { closestWeights } from './ensemble.js';
import { LearnInputError } from './errors.js';
import type { KernelShapOptions } from './kernel-shap.js';
import { fromModelSpace, toModelSpace } from './metrics.js';
import type { TrainedModel } from './model-file.js';
import { explainModel, predictModel, type Baseline, type ModelKind } from './models.js';
import { scoreOod } from './ood.js';
import { encode } from './preprocess.js';
import { referenceRow, typicalRow } from './reference.js';
import type { Table } from './table.js';

export interface PredictOptions {
  /** Default: the method stored in the model. */
  ensemble?: 'average' | 'closest';
  /** Measured target values (target units) for 'closest': each row takes the member nearest to its measurement. */
  measured?: Float64Array;
  /** Score out-of-distribution checks (default true; the nearest-row search is the costly part). */
  ood?: boolean;
  /** Reasons that put every row out of distribution whatever its values (e.g. columns the table lacks). */
  oodAll?: readonly string[];
}

/**
 * The member an out-of-distribution row is predicted by: the tree member with the best validation RMSE. A tree
 * predicts within the targets it was trained on, where the linear, poly-2, kNN-blended and MLP members extrapolate
 * without bound (on a system the model never saw, the ensemble's R² fell to −7.8 where its GBDT alone kept −1.6).
 * −1 when the model has no tree member: then the ensemble stands, with the flag.
 */
export function robustMember(model: TrainedModel): number {
  let best = -1;
  model.members.forEach((m, i) => {
    if ((m.model.type === 'gbdt' || m.model.type === 'forest') && (best < 0 || m.validation.rmse < model.members[best].validation.rmse)) best = i;
  });
  return best;
}

/** The OOD verdict of every row (all in when `score` is false). */
function oodOf(model: TrainedModel, enc: ReturnType<typeof encode>, options: PredictOptions): { ood: boolean[]; reasons: string[][] } {
  const n = enc.matrix.nRows;
  if (options.ood === false) return { ood: new Array<boolean>(n).fill(false), reasons: Array.from({ length: n }, () => [] as string[]) };
  const scored = scoreOod(model.ood, model.preprocessor, enc, { rows: model.reference.rows.subarray(0, model.reference.oodRows * enc.matrix.nCols), n: model.reference.oodRows });
  const all = options.oodAll ?? [];
  if (all.length === 0) return scored;
  return { ood: scored.ood.map(() => true), reasons: scored.reasons.map((r) => [...all, ...r]) };
}

/** Weights with every out-of-distribution row moved to the robust member (when there is one). */
function robustWeights(model: TrainedModel, weights: number[][], ood: readonly boolean[]): number[][] {
  const robust = robustMember(model);
  if (robust < 0) return weights;
  return weights.map((w, r) => (ood[r] ? w.map((_, i) => (i === robust ? 1 : 0)) : w));
}

export interface Predictions {
  /** Ensemble output in model space, log10(1 + y). */
  output: Float64Array;
  /** The same in target units: 10^output − 1. */
  prediction: Float64Array;
  /** Interval from the validation residual quantiles (5 %, 95 %), in target units. */
  low: Float64Array;
  high: Float64Array;
  ood: boolean[];
  oodReasons: string[][];
  /**
   * Each member's output (model space) and its weight per row: the ensemble's ('closest': per row), or all on the
   * robust member for an out-of-distribution row (`robustMember`).
   */
  members: { type: ModelKind; output: Float64Array }[];
  weights: number[][];
}

/** Per-row member weights for the chosen merge. */
function rowWeights(model: TrainedModel, outputs: Float64Array[], nRows: number, method: 'average' | 'closest', measured?: Float64Array): number[][] {
  const avg = model.members.map((m) => m.weight);
  if (method === 'average') return Array.from({ length: nRows }, () => avg);
  const reference = new Float64Array(nRows);
  for (let r = 0; r < nRows; r++) {
    if (measured && measured[r] >= 0) reference[r] = toModelSpace(measured[r]);
    else for (let i = 0; i < outputs.length; i++) reference[r] += avg[i] * outputs[i][r];
  }
  return Array.from({ length: nRows }, (_, r) => closestWeights(outputs, reference, r));
}

/** Predicts every row of a table (the model's feature columns must be present). */
export function predict(model: TrainedModel, table: Table, options: PredictOptions = {}): Predictions {
  const method = options.ensemble ?? model.ensemble.method;
  if (options.measured && options.measured.length !== table.nRows) throw new LearnInputError('measured values do not match the rows');
  const enc = encode(model.preprocessor, table);
  const outputs = model.members.map((m) => predictModel(m.model, enc.matrix));
  const ood = oodOf(model, enc, options);
  const weights = robustWeights(model, rowWeights(model, outputs, table.nRows, method, options.measured), ood.ood);
  const n = table.nRows;
  const output = new Float64Array(n);
  for (let r = 0; r < n; r++) for (let i = 0; i < outputs.length; i++) output[r] += weights[r][i] * outputs[i][r];
  const { low: lo, high: hi } = model.ensemble.interval;
  return {
    output,
    prediction: output.map(fromModelSpace),
    low: output.map((v) => fromModelSpace(v + lo)),
    high: output.map((v) => fromModelSpace(v + hi)),
    ood: ood.ood,
    oodReasons: ood.reasons,
    members: model.members.map((m, i) => ({ type: m.model.type, output: outputs[i] })),
    weights,
  };
}

export interface ExplainOptions extends PredictOptions {
  /** Rows to explain (default: all). */
  rows?: readonly number[];
  /**
   * What each feature is weighed against (src/learn/reference.ts). 'zero' (default): interventional SHAP against
   * the all-zero row in model space, so a counter that is 0 gets exactly 0; 'typical': zero for the features in
   * `zeroFeatures`, the training median (most frequent category) for the others; 'path': path-dependent TreeSHAP for
   * trees, the training-mean row for the other models. With 'zero' and 'typical', a column (nearly) constant in the
   * training data, and a value the model does not know (missing; a category missing or never seen), are weighed
   * against the job's own value: never blamed (`referenceRow`).
   */
  baseline?: 'zero' | 'path' | 'typical';
  /** For 'typical': per feature (the preprocessor's order), whether 0 is its reference. */
  zeroFeatures?: readonly boolean[];
  /** Per feature, whether it counts what the job did: a job's 0 there is weighed against 0 under any baseline row. */
  counters?: readonly boolean[];
  /**
   * A row of the table as the one reference (interventional SHAP against it, overriding `baseline`): the values
   * explain f(row) − f(reference), exactly for trees and linear models (`iolens compare --model`). The members are
   * weighted as for the explained row, so `base` is the reference's output under those weights.
   */
  reference?: number;
  kernel?: Partial<KernelShapOptions>;
}

/** One row's merged explanation: base + Σ shap = output (model space), output = log10(1 + prediction). */
export interface Explanation {
  row: number;
  base: number;
  output: number;
  prediction: number;
  contributions: { feature: string; value: number | string | null; shap: number }[];
  members: { type: ModelKind; weight: number; base: number; output: number }[];
}

/**
 * Explains rows of a table: every member explained (TreeSHAP, exact linear SHAP, exact enumeration or KernelSHAP),
 * then merged with the ensemble weights, so additivity carries over to the ensemble output.
 */
export function explain(model: TrainedModel, table: Table, options: ExplainOptions = {}): Explanation[] {
  const pre = model.preprocessor;
  const enc = encode(pre, table);
  const nCols = pre.columns.length;
  const rows = options.rows ?? Array.from({ length: table.nRows }, (_, i) => i);
  for (const r of rows) if (!(Number.isInteger(r) && r >= 0 && r < table.nRows)) throw new LearnInputError(`row ${r} is not in the table`);
  const mode = options.baseline ?? 'zero';
  const ref = options.reference;
  if (ref !== undefined && !(Number.isInteger(ref) && ref >= 0 && ref < table.nRows)) throw new LearnInputError(`reference row ${ref} is not in the table`);
  const fixed: Baseline | null =
    ref !== undefined
      ? { kind: 'row', row: Float64Array.from(enc.matrix.data.subarray(ref * nCols, (ref + 1) * nCols)) }
      : mode === 'path'
        ? { kind: 'path', row: Float64Array.from(pre.stats, (s) => s.mean) }
        : null;
  const zeroFeatures = mode === 'typical' ? pre.features.map((_, f) => options.zeroFeatures?.[f] ?? false) : pre.features.map(() => true);
  const typical = fixed ? null : typicalRow(model);
  const baselineOf = (r: number): Baseline => fixed ?? { kind: 'row', row: referenceRow(model, enc.matrix.data.subarray(r * nCols, (r + 1) * nCols), { zeroFeatures, counters: options.counters }, typical ?? undefined) };
  const group = Int32Array.from(pre.columnFeature);
  const nFeatures = pre.features.length;
  const outputs = model.members.map((m) => predictModel(m.model, enc.matrix));
  const ood = oodOf(model, enc, options);
  const weights = robustWeights(model, rowWeights(model, outputs, table.nRows, options.ensemble ?? model.ensemble.method, options.measured), ood.ood);
  return rows.map((r) => {
    const w = weights[r];
    const phi = new Float64Array(nFeatures);
    let base = 0;
    let output = 0;
    const members: Explanation['members'] = [];
    const baseline = baselineOf(r);
    model.members.forEach((m, i) => {
      if (w[i] === 0) {
        members.push({ type: m.model.type, weight: 0, base: NaN, output: outputs[i][r] });
        return;
      }
      const e = explainModel(m.model, enc.matrix, r, baseline, group, nFeatures, options.kernel);
      base += w[i] * e.base;
      output += w[i] * e.output;
      for (let f = 0; f < nFeatures; f++) phi[f] += w[i] * e.phi[f];
      members.push({ type: m.model.type, weight: w[i], base: e.base, output: e.output });
    });
    const contributions = pre.features.map((f, fi) => {
      const col = table.columns[f.name];
      const v = col[r];
      // (a value the model took as missing shows as such: NaN or ±Infinity)
      return { feature: f.name, value: typeof v === 'number' ? (Number.isFinite(v) ? v : null) : (v ?? null), shap: phi[fi] };
    });
    return { row: r, base, output, prediction: fromModelSpace(output), contributions, members };
  });
}
