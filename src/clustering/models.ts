// Local throughput models of a clustering run (Gauge): for chosen nodes of the hierarchy, a model of the learn
// engine trained on the node's jobs only, its K-fold cross-validated error next to the global model's error on the
// same jobs (the global model is the root's, cross-validated the same way), and a SHAP summary of what drives the
// node's throughput. The work of one node is one task, run on worker threads when there are several.
import { explain, logMetrics, makeTable, predict, toModelSpace, train, type Metrics, type Table } from '../learn/index.js';
import { signedLog10 } from '../cluster/index.js';
import { rng } from '../util/random.js';
import { pearson, quantileSorted } from '../util/stats.js';

/** Settings of the local models. */
export interface ModelSettings {
  /** Nodes that get a model, at most (the root, whose model is the global one, counts). 0: no models. */
  maxModels: number;
  /** A node gets a model only with at least this many rows with a usable (positive) target. */
  minRows: number;
  /** Folds of the cross-validation (≥ 2). */
  folds: number;
  /** Rows a model is trained on at most (a seeded sample of the training rows above that). */
  maxTrainRows: number;
  /** Rows explained per node at most (a seeded sample). */
  explainRows: number;
  seed: number;
}

export const DEFAULT_MODEL_SETTINGS: ModelSettings = { maxModels: 8, minRows: 200, folds: 3, maxTrainRows: 2000, explainRows: 200, seed: 0 };

/** What every model task reads: the whole table, shared between threads. */
export interface ModelData {
  /** n × d raw feature values, row-major (on a SharedArrayBuffer when workers run). */
  data: Float64Array;
  d: number;
  names: string[];
  /** Indices of the features the models may use (timings are left out). */
  inputs: number[];
  target: Float64Array;
  targetName: string;
  /** run_time per row, for the leak guard, or null. */
  runtime: Float64Array | null;
  settings: ModelSettings;
}

/** One node's model work: its rows with a usable target, ascending. */
export interface ModelTask {
  node: number;
  rows: Int32Array;
}

/**
 * One model input's share in a node's explanation. SHAP values are path-dependent TreeSHAP (as Gauge's
 * TreeExplainer): relative to the node's own average job, so they say what makes throughput vary inside the group.
 */
export interface ShapFeature {
  feature: string;
  /** Mean |SHAP| over the explained rows, in log10(1 + target) (decades of throughput). */
  mean_abs: number;
  /** Pearson correlation of the feature's value (signed log10) with its SHAP value over those rows. */
  correlation: number;
  /** '+': more of it goes with higher throughput in this group; '-': with lower; '0': no effect or no variation. */
  sign: '+' | '-' | '0';
}

export type ModelTaskResult =
  | {
      node: number;
      ok: true;
      /** Out-of-fold predictions (model space) for task.rows, and those of the fold-median baseline. */
      oof: Float64Array;
      baselineOof: Float64Array;
      trainedRows: number;
      features: string[];
      dropped: { feature: string; reason: string }[];
      params: Record<string, unknown>;
      shap: { rows: number; features: ShapFeature[] };
    }
  | { node: number; ok: false; error: string };

/** The first `k` rows of a seeded Fisher–Yates shuffle of `rows` (a copy; k = length shuffles all). */
function shuffledHead(rows: ArrayLike<number>, k: number, seed: number): Int32Array {
  const out = Int32Array.from(rows);
  const r = rng(seed);
  for (let i = 0; i < k && i < out.length - 1; i++) {
    const j = i + Math.floor(r() * (out.length - i));
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out.subarray(0, k);
}

/** At most `cap` of `rows` (a seeded sample above that), ascending. */
export function sampleRows(rows: ArrayLike<number>, cap: number, seed: number): Int32Array {
  return (rows.length <= cap ? Int32Array.from(rows) : shuffledHead(rows, cap, seed)).sort();
}

function tableOf(m: ModelData, rows: ArrayLike<number>): Table {
  const cols: Record<string, Float64Array> = {};
  for (const j of m.inputs) {
    const c = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) c[i] = m.data[rows[i] * m.d + j];
    cols[m.names[j]] = c;
  }
  cols[m.targetName] = Float64Array.from(rows, (r) => m.target[r]);
  if (m.runtime) cols.__run_time = Float64Array.from(rows, (r) => m.runtime![r]);
  return makeTable(cols);
}

async function fit(m: ModelData, rows: Int32Array, seed: number) {
  return train(tableOf(m, rows), {
    target: m.targetName,
    features: m.inputs.map((j) => ({ name: m.names[j], kind: 'numeric' as const })),
    runtimeColumn: m.runtime ? '__run_time' : undefined,
    models: ['gbdt'],
    seed,
    parallel: false,
  });
}

/**
 * One node: K-fold cross-validation (each fold's model trained on at most maxTrainRows of the other folds, with its
 * own validation split and settings search inside train), then the node's model on (at most maxTrainRows of) all
 * its rows, explained on a sample of them (path-dependent TreeSHAP).
 */
export async function fitNodeModel(task: ModelTask, m: ModelData): Promise<ModelTaskResult> {
  const s = m.settings;
  const R = task.rows;
  const seed = (s.seed * 1_000_003 + task.node * 7919) >>> 0;
  try {
    const order = shuffledHead(R, R.length, seed);
    const fold = new Map<number, number>();
    order.forEach((r, i) => fold.set(r, i % s.folds));
    const oof = new Float64Array(R.length);
    const baselineOof = new Float64Array(R.length);
    for (let k = 0; k < s.folds; k++) {
      const inFold = R.filter((r) => fold.get(r) === k);
      const rest = R.filter((r) => fold.get(r) !== k);
      const model = await fit(m, sampleRows(rest, s.maxTrainRows, seed + k + 1), s.seed);
      const pred = predict(model, tableOf(m, inFold), { ood: false }).output;
      const base = quantileSorted(Float64Array.from(rest, (r) => toModelSpace(m.target[r])).sort(), 0.5);
      let p = 0;
      R.forEach((r, i) => {
        if (fold.get(r) !== k) return;
        oof[i] = pred[p++];
        baselineOof[i] = base;
      });
    }
    const trainRows = sampleRows(R, s.maxTrainRows, seed + s.folds + 1);
    const model = await fit(m, trainRows, s.seed);
    const explained = sampleRows(R, s.explainRows, seed + s.folds + 2);
    const ex = explain(model, tableOf(m, explained), { baseline: 'path', ood: false });
    const features = model.preprocessor.features.map((f) => f.name);
    const shap = features
      .map((feature, f): ShapFeature => {
        const phi = Float64Array.from(ex, (e) => e.contributions[f].shap);
        const value = Float64Array.from(ex, (e) => signedLog10(Number(e.contributions[f].value ?? 0)));
        let abs = 0;
        for (const v of phi) abs += Math.abs(v);
        const r = pearson(value, phi);
        return { feature, mean_abs: abs / ex.length, correlation: r, sign: r > 0 ? '+' : r < 0 ? '-' : '0' };
      })
      .sort((a, b) => b.mean_abs - a.mean_abs || (a.feature < b.feature ? -1 : 1));
    const member = model.members[0];
    return {
      node: task.node,
      ok: true,
      oof,
      baselineOof,
      trainedRows: trainRows.length,
      features,
      dropped: model.leakGuard.dropped,
      params: { ...(member.model as { params?: Record<string, unknown> }).params },
      shap: { rows: ex.length, features: shap },
    };
  } catch (err) {
    return { node: task.node, ok: false, error: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  }
}

/** Accuracy as stored: error factors 10^|Δ| in log10(1 + target), R² and RMSE there. */
export interface Accuracy {
  rows: number;
  median_error_factor: number;
  mean_error_factor: number;
  r2: number;
  rmse: number;
}

export function accuracy(truth: Float64Array, pred: Float64Array): Accuracy {
  const x: Metrics = logMetrics(truth, pred);
  return { rows: x.rows, median_error_factor: x.medianErrorFactor, mean_error_factor: x.meanErrorFactor, r2: x.r2, rmse: x.rmse };
}
