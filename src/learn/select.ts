import { fitForest, type ForestParams } from './forest.js';
import { fitGbdt, type GbdtParams } from './gbdt.js';
import { fitKnn, knnCombine, nearest, zScores, type KnnModel } from './knn.js';
import { fitRidge, topCorrelated } from './linear.js';
import { logMetrics, type Metrics } from './metrics.js';
import { fitMlp, type MlpParams } from './mlp.js';
import { predictModel, type FittedModel, type ModelKind } from './models.js';
import type { Matrix } from './table.js';

/**
 * The data of one model-selection run. Models are fitted on the `fit` rows and scored on `valid` (both encoded with
 * the preprocessing fitted on the fit rows); the chosen settings are then refitted on `all` training rows (encoded
 * with the preprocessing fitted on all of them). `statsFit`/`statsAll` standardise features for kNN and the MLP.
 */
export interface SelectionData {
  fit: { x: Matrix; y: Float64Array };
  valid: { x: Matrix; y: Float64Array };
  all: { x: Matrix; y: Float64Array };
  statsFit: { mean: number[]; std: number[] };
  statsAll: { mean: number[]; std: number[] };
  /** Training rows (z-scores under statsAll, float32) in the order the final kNN stores them, and their targets. */
  reference: { rows: Float32Array; y: Float64Array };
  seed: number;
  /** Replaces fixed settings of a family's grid (e.g. fewer MLP epochs, more forest trees). */
  overrides?: SettingOverrides;
}

/** Fixed settings a caller may replace, per family (the searched grid stays as documented). */
export interface SettingOverrides {
  gbdt?: Partial<GbdtParams>;
  forest?: Partial<ForestParams> & { selectionTrees?: number };
  mlp?: Partial<MlpParams>;
}

/** The outcome of selecting one family: the refitted model, its settings, and its scores on validation rows. */
export interface Selected {
  model: FittedModel;
  validation: Metrics;
  /** Predictions of the validation-time model (fitted on the fit rows) for the validation rows. */
  validPred: Float64Array;
  /** Every setting tried, with its validation RMSE. */
  tried: { params: Record<string, unknown>; rmse: number }[];
}

/** The small, fixed grids searched on validation rows (documented in docs/learn.md). */
export const GRIDS = {
  gbdt: {
    maxLeafNodes: [15, 31, 63],
    minSamplesLeaf: [10, 30],
    fixed: { learningRate: 0.1, l2: 1, maxIter: 1000, nIterNoChange: 20, tol: 1e-7 } satisfies Partial<GbdtParams>,
  },
  forest: {
    maxFeatures: [0.33, 0.66],
    minSamplesLeaf: [2, 8],
    /** Settings are compared with `selectionTrees` trees; the refit grows `fixed.nTrees`. */
    selectionTrees: 50,
    fixed: { nTrees: 100, maxDepth: 10 } satisfies Partial<ForestParams>,
  },
  ridge: { alpha: [0.01, 0.1, 1, 10, 100, 1000] },
  poly2: { alpha: [0.1, 1, 10, 100, 1000, 10000], interactionColumns: 20 },
  knn: { k: [5, 10, 20, 40], weighting: ['uniform', 'distance'] as KnnModel['weighting'][] },
  mlp: { fixed: { hidden: [64, 32], learningRate: 2e-3, l2: 1e-4, batchSize: 256, maxEpochs: 100, patience: 10 } satisfies Partial<MlpParams> },
};

function rmse(y: Float64Array, p: Float64Array): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += (p[i] - y[i]) ** 2;
  return Math.sqrt(s / y.length);
}

/** Keeps the setting with the lowest validation RMSE (the first one on ties, so the grid order decides). */
function best<T>(items: { value: T; rmse: number }[]): { value: T; rmse: number } {
  return items.reduce((a, b) => (b.rmse < a.rmse ? b : a));
}

function selectGbdt(d: SelectionData): Selected {
  const tried: Selected['tried'] = [];
  const runs: { value: { params: Partial<GbdtParams>; iters: number; pred: Float64Array }; rmse: number }[] = [];
  for (const maxLeafNodes of GRIDS.gbdt.maxLeafNodes) {
    for (const minSamplesLeaf of GRIDS.gbdt.minSamplesLeaf) {
      const params = { ...GRIDS.gbdt.fixed, maxLeafNodes, minSamplesLeaf, seed: d.seed, ...d.overrides?.gbdt };
      const fit = fitGbdt(d.fit.x, d.fit.y, params, d.valid);
      const pred = predictModel({ type: 'gbdt', params, trees: fit.model }, d.valid.x);
      const e = rmse(d.valid.y, pred);
      tried.push({ params: { maxLeafNodes, minSamplesLeaf, iterations: fit.bestIterations }, rmse: e });
      runs.push({ value: { params, iters: fit.bestIterations, pred }, rmse: e });
    }
  }
  const b = best(runs).value;
  // Early stopping found `iters` trees for the fit rows; the refit on all rows grows proportionally more.
  const iters = Math.max(1, Math.round((b.iters * d.all.x.nRows) / d.fit.x.nRows));
  const params: Partial<GbdtParams> = { ...b.params, maxIter: iters };
  delete (params as Record<string, unknown>).nIterNoChange;
  delete (params as Record<string, unknown>).tol;
  const model = fitGbdt(d.all.x, d.all.y, params).model;
  return { model: { type: 'gbdt', params, trees: model }, validation: logMetrics(d.valid.y, b.pred), validPred: b.pred, tried };
}

function selectForest(d: SelectionData): Selected {
  const tried: Selected['tried'] = [];
  const runs: { value: { params: Partial<ForestParams>; pred: Float64Array }; rmse: number }[] = [];
  for (const maxFeatures of GRIDS.forest.maxFeatures) {
    for (const minSamplesLeaf of GRIDS.forest.minSamplesLeaf) {
      const { selectionTrees = GRIDS.forest.selectionTrees, ...fixed } = d.overrides?.forest ?? {};
      const params = { ...GRIDS.forest.fixed, maxFeatures, minSamplesLeaf, seed: d.seed, ...fixed };
      const trial = { ...params, nTrees: Math.min(selectionTrees, params.nTrees) };
      const pred = predictModel({ type: 'forest', params: trial, trees: fitForest(d.fit.x, d.fit.y, trial) }, d.valid.x);
      const e = rmse(d.valid.y, pred);
      tried.push({ params: { maxFeatures, minSamplesLeaf }, rmse: e });
      runs.push({ value: { params, pred }, rmse: e });
    }
  }
  const b = best(runs).value;
  const model = fitForest(d.all.x, d.all.y, b.params);
  return { model: { type: 'forest', params: b.params, trees: model }, validation: logMetrics(d.valid.y, b.pred), validPred: b.pred, tried };
}

function selectRidge(d: SelectionData, poly: boolean): Selected {
  const alphas = poly ? GRIDS.poly2.alpha : GRIDS.ridge.alpha;
  // Interaction candidates are chosen on the fit rows and kept for the refit (a setting like any other).
  const inter = poly ? topCorrelated(d.fit.x, d.fit.y, GRIDS.poly2.interactionColumns) : [];
  const fitted = fitRidge(d.fit.x, d.fit.y, alphas, inter);
  const runs = fitted.map((ridge) => {
    const pred = predictModel({ type: 'ridge', params: { alpha: ridge.alpha }, ridge }, d.valid.x);
    return { value: { alpha: ridge.alpha, pred }, rmse: rmse(d.valid.y, pred) };
  });
  const b = best(runs).value;
  const [ridge] = fitRidge(d.all.x, d.all.y, [b.alpha], inter);
  const tried = runs.map((r) => ({ params: { alpha: r.value.alpha }, rmse: r.rmse }));
  const model: FittedModel = poly ? { type: 'poly2', params: { alpha: b.alpha, interactionColumns: inter }, ridge } : { type: 'ridge', params: { alpha: b.alpha }, ridge };
  return { model, validation: logMetrics(d.valid.y, b.pred), validPred: b.pred, tried };
}

function selectKnn(d: SelectionData): Selected {
  const kMax = Math.max(...GRIDS.knn.k);
  const fitModel = fitKnn(d.fit.x, d.fit.y, kMax, 'uniform', d.statsFit);
  const q = zScores(d.valid.x, d.statsFit.mean, d.statsFit.std);
  const nb = nearest(fitModel.rows, d.fit.x.nCols, q, d.valid.x.nRows, kMax);
  const stride = Math.min(kMax, d.fit.y.length);
  const runs: { value: { k: number; weighting: KnnModel['weighting']; pred: Float64Array }; rmse: number }[] = [];
  for (const k of GRIDS.knn.k) {
    for (const weighting of GRIDS.knn.weighting) {
      const pred = knnCombine(fitModel.y, nb, stride, k, weighting);
      runs.push({ value: { k, weighting, pred }, rmse: rmse(d.valid.y, pred) });
    }
  }
  const b = best(runs).value;
  const knn: KnnModel = { k: b.k, weighting: b.weighting, mean: d.statsAll.mean, std: d.statsAll.std, rows: d.reference.rows, y: d.reference.y };
  const tried = runs.map((r) => ({ params: { k: r.value.k, weighting: r.value.weighting }, rmse: r.rmse }));
  return { model: { type: 'knn', params: { k: b.k, weighting: b.weighting }, knn }, validation: logMetrics(d.valid.y, b.pred), validPred: b.pred, tried };
}

/** The MLP's selection: early stopping on validation picks the epochs, the refit trains that many on all rows. */
export async function selectMlp(d: SelectionData): Promise<Selected & { backend: string }> {
  const params = { ...GRIDS.mlp.fixed, seed: d.seed, ...d.overrides?.mlp };
  const first = await fitMlp(d.fit.x, d.fit.y, d.statsFit, params, d.valid);
  const pred = predictModel({ type: 'mlp', params, mlp: first.model }, d.valid.x);
  const refitParams = { ...params, maxEpochs: first.epochs };
  const final = await fitMlp(d.all.x, d.all.y, d.statsAll, refitParams);
  return {
    model: { type: 'mlp', params: refitParams, mlp: final.model },
    validation: logMetrics(d.valid.y, pred),
    validPred: pred,
    tried: [{ params: { epochs: first.epochs }, rmse: rmse(d.valid.y, pred) }],
    backend: final.backend,
  };
}

/** Selects and refits one family (the MLP through `selectMlp`, which is asynchronous). */
export function selectSync(kind: Exclude<ModelKind, 'mlp'>, d: SelectionData): Selected {
  switch (kind) {
    case 'gbdt':
      return selectGbdt(d);
    case 'forest':
      return selectForest(d);
    case 'ridge':
      return selectRidge(d, false);
    case 'poly2':
      return selectRidge(d, true);
    case 'knn':
      return selectKnn(d);
  }
}
