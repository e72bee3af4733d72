import { closestWeights } from './ensemble.js';
import { LearnInputError } from './errors.js';
import type { KernelShapOptions } from './kernel-shap.js';
import { fromModelSpace, toModelSpace } from './metrics.js';
import type { TrainedModel } from './model-file.js';
import { explainModel, predictModel, type Baseline, type ModelKind } from './models.js';
import { clampRow, clampToRanges, scoreOod } from './ood.js';
import { encode } from './preprocess.js';
import { referenceRow, typicalRow } from './reference.js';
import type { Matrix, Table } from './table.js';

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
 * What an out-of-distribution row is predicted by, chosen by how it is out (docs/learn.md, "Out of distribution"):
 * - beyond the data by its values (more features outside the training range than validation rows have, or far
 *   from every training row): the ensemble, its members that extrapolate (linear, poly-2, kNN, MLP) fed the row
 *   clamped into the training range (`clampToRanges`); trees are flat beyond the range by construction;
 * - only an unseen category, or columns the table lacks (taken as missing values): the ensemble as it is — every
 *   member sees the value as absent;
 * - on every row, a member that extrapolates is left out where its output leaves the range of the training
 *   targets (`guardWeights`): a new combination of values inside the ranges can still send a linear model decades
 *   away, and that is the row's OOD reason.
 * (The earlier rule, the best tree alone for every OOD row, lost to the ensemble on Mira: the trees' learned
 * directions for missing values are not another machine's.)
 */
export function isTreeKind(kind: ModelKind): boolean {
  return kind === 'gbdt' || kind === 'forest';
}

/** The OOD verdict of every row (all in when `score` is false). */
function oodOf(model: TrainedModel, enc: ReturnType<typeof encode>, options: PredictOptions): { ood: boolean[]; reasons: string[][]; beyond: boolean[] } {
  const n = enc.matrix.nRows;
  if (options.ood === false) return { ood: new Array<boolean>(n).fill(false), reasons: Array.from({ length: n }, () => [] as string[]), beyond: new Array<boolean>(n).fill(false) };
  const scored = scoreOod(model.ood, model.preprocessor, enc, { rows: model.reference.rows.subarray(0, model.reference.oodRows * enc.matrix.nCols), n: model.reference.oodRows });
  const all = options.oodAll ?? [];
  if (all.length === 0) return scored;
  return { ood: scored.ood.map(() => true), reasons: scored.reasons.map((r) => [...all, ...r]), beyond: scored.beyond };
}

/** Each member's output per row, the extrapolating members' on the clamped rows where a row is beyond the data. */
function memberOutputs(model: TrainedModel, m: Matrix, beyond: readonly boolean[]): { outputs: Float64Array[]; clamped: Matrix | null } {
  const clamped = beyond.some(Boolean) ? clampToRanges(model.ood, m, beyond) : null;
  const outputs = model.members.map((mb) => {
    const o = predictModel(mb.model, m);
    if (!clamped || isTreeKind(mb.model.type)) return o;
    const c = predictModel(mb.model, clamped);
    for (let r = 0; r < m.nRows; r++) if (beyond[r]) o[r] = c[r];
    return o;
  });
  return { outputs, clamped };
}

/**
 * The interval of a row in model space: the conformal one (validation residual quantiles) inside the data; for an
 * out-of-distribution row, widened to hold every training target as well (their whole range): the validation
 * residuals say nothing about a row unlike them, which could be any throughput the training jobs had (docs/learn.md:
 * the coverage measured on rows of held-out applications, where the central 99 % held 86.6 % of one application's).
 */
function intervalOf(model: TrainedModel, output: number, ood: boolean, spread: { lo: number; hi: number }): { low: number; high: number } {
  const { low, high } = model.ensemble.interval;
  if (!ood) return { low: output + low, high: output + high };
  return { low: Math.min(output + low, spread.lo), high: Math.max(output + high, spread.hi) };
}

/** The range of the training targets (model space). */
function targetSpread(model: TrainedModel): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of model.reference.y) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return { lo, hi };
}

/**
 * Leaves out of a row's ensemble each member that extrapolates (not a tree) where its output leaves the range of the
 * training targets: no training job had such a throughput, so that number is the member's extrapolation, not
 * something it learned (a held-out application sent ridge six decades away on rows no range check flagged). Trees
 * never leave it. The weights of the others are renormalised (all on the trees if nothing else is left). Returns the
 * members left out per row (by type).
 */
function guardWeights(model: TrainedModel, outputs: Float64Array[], weights: number[][]): string[][] {
  const trees = model.members.map((m) => isTreeKind(m.model.type));
  const treeW = model.members.reduce((a, m, i) => a + (trees[i] ? m.weight : 0), 0);
  const range = targetSpread(model);
  return weights.map((w, r) => {
    if (!(treeW > 0)) return [];
    const out: string[] = [];
    model.members.forEach((m, i) => {
      if (!trees[i] && w[i] > 0 && !(outputs[i][r] >= range.lo && outputs[i][r] <= range.hi)) {
        out.push(m.model.type);
        w[i] = 0;
      }
    });
    if (out.length === 0) return out;
    let sum = w.reduce((a, b) => a + b, 0);
    if (!(sum > 0)) {
      model.members.forEach((m, i) => (w[i] = trees[i] ? m.weight : 0));
      sum = treeW;
    }
    for (let i = 0; i < w.length; i++) w[i] /= sum;
    return out;
  });
}

/** How each row is predicted: its OOD verdict, each member's output, the weights (`guardWeights` applied). */
function planRows(model: TrainedModel, enc: ReturnType<typeof encode>, options: PredictOptions, nRows: number) {
  const ood = oodOf(model, enc, options);
  const { outputs, clamped } = memberOutputs(model, enc.matrix, ood.beyond);
  const weights = rowWeights(model, outputs, nRows, options.ensemble ?? model.ensemble.method, options.measured).map((w) => [...w]);
  const strayed = guardWeights(model, outputs, weights);
  if (options.ood !== false) {
    strayed.forEach((types, r) => {
      if (types.length === 0) return;
      ood.ood[r] = true;
      ood.reasons[r].push(`${types.join(', ')} ${types.length > 1 ? 'predict' : 'predicts'} beyond every training job's throughput: left out`);
    });
  }
  return { ood, outputs, clamped, weights };
}

export interface Predictions {
  /** Ensemble output in model space, log10(1 + y). */
  output: Float64Array;
  /** The same in target units: 10^output − 1. */
  prediction: Float64Array;
  /** Interval from the validation residual quantiles (5 %, 95 %), in target units; wider for an OOD row (`intervalOf`). */
  low: Float64Array;
  high: Float64Array;
  ood: boolean[];
  oodReasons: string[][];
  /**
   * Each member's output (model space; on the clamped row for an extrapolating member where the row is beyond the
   * data) and its weight per row (the ensemble's; 'closest': per row).
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
  const { ood, outputs, weights } = planRows(model, enc, { ...options, ensemble: method }, table.nRows);
  const n = table.nRows;
  const output = new Float64Array(n);
  for (let r = 0; r < n; r++) for (let i = 0; i < outputs.length; i++) output[r] += weights[r][i] * outputs[i][r];
  const spread = targetSpread(model);
  const bands = Array.from(output, (v, r) => intervalOf(model, v, ood.ood[r], spread));
  return {
    output,
    prediction: output.map(fromModelSpace),
    low: Float64Array.from(bands, (b) => fromModelSpace(b.low)),
    high: Float64Array.from(bands, (b) => fromModelSpace(b.high)),
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
  const { ood, outputs, clamped, weights } = planRows(model, enc, options, table.nRows);
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
      // an extrapolating member of a row beyond the data explains what it predicted: the clamped row against the
      // clamped reference (clamping is per column, so these are the exact values of the clamped model)
      const clamp = clamped !== null && ood.beyond[r] && !isTreeKind(m.model.type);
      const e = clamp
        ? explainModel(m.model, clamped, r, { ...baseline, row: clampRow(model.ood, baseline.row) }, group, nFeatures, options.kernel)
        : explainModel(m.model, enc.matrix, r, baseline, group, nFeatures, options.kernel);
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
