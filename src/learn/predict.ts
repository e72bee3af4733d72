import { closestWeights } from './ensemble.js';
import { LearnInputError } from './errors.js';
import type { KernelShapOptions } from './kernel-shap.js';
import { fromModelSpace, toModelSpace } from './metrics.js';
import type { TrainedModel } from './model-file.js';
import { explainModel, predictModel, type Baseline, type ModelKind } from './models.js';
import { scoreOod } from './ood.js';
import { encode } from './preprocess.js';
import type { Table } from './table.js';

export interface PredictOptions {
  /** Default: the method stored in the model. */
  ensemble?: 'average' | 'closest';
  /** Measured target values (target units) for 'closest': each row takes the member nearest to its measurement. */
  measured?: Float64Array;
  /** Score out-of-distribution checks (default true; the nearest-row search is the costly part). */
  ood?: boolean;
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
  /** Each member's output (model space) and its ensemble weight (per row for 'closest'). */
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
  const weights = rowWeights(model, outputs, table.nRows, method, options.measured);
  const n = table.nRows;
  const output = new Float64Array(n);
  for (let r = 0; r < n; r++) for (let i = 0; i < outputs.length; i++) output[r] += weights[r][i] * outputs[i][r];
  const { low: lo, high: hi } = model.ensemble.interval;
  const ood =
    options.ood === false
      ? { ood: new Array<boolean>(n).fill(false), reasons: Array.from({ length: n }, () => [] as string[]) }
      : scoreOod(model.ood, model.preprocessor, enc, { rows: model.reference.rows.subarray(0, model.reference.oodRows * enc.matrix.nCols), n: model.reference.oodRows });
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
   * 'zero' (default): interventional SHAP against the all-zero row in model space, so a counter that is 0 gets
   * exactly 0; 'path': path-dependent TreeSHAP for trees, the training-mean row for the other models.
   */
  baseline?: 'zero' | 'path';
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
  const baseline: Baseline =
    ref !== undefined
      ? { kind: 'row', row: Float64Array.from(enc.matrix.data.subarray(ref * nCols, (ref + 1) * nCols)) }
      : { kind: mode === 'zero' ? 'row' : 'path', row: mode === 'zero' ? new Float64Array(nCols) : Float64Array.from(pre.stats, (s) => s.mean) };
  const group = Int32Array.from(pre.columnFeature);
  const nFeatures = pre.features.length;
  const outputs = model.members.map((m) => predictModel(m.model, enc.matrix));
  const weights = rowWeights(model, outputs, table.nRows, options.ensemble ?? model.ensemble.method, options.measured);
  return rows.map((r) => {
    const w = weights[r];
    const phi = new Float64Array(nFeatures);
    let base = 0;
    let output = 0;
    const members: Explanation['members'] = [];
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
