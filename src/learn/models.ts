import type { TreeEnsemble } from './ensemble-trees.js';
import { predictTrees } from './ensemble-trees.js';
import type { ForestParams } from './forest.js';
import type { GbdtParams } from './gbdt.js';
import { differingPlayers, kernelShap, shapleyGame, type KernelShapOptions } from './kernel-shap.js';
import { knnCombine, knnGame, nearest, zScores, type KnnModel } from './knn.js';
import { predictRidge, ridgeShap, type RidgeModel } from './linear.js';
import { predictMlp, type MlpModel, type MlpParams } from './mlp.js';
import type { Matrix } from './table.js';
import { ensembleShapBaseline, ensembleShapPath, pathBuffersFor } from './treeshap.js';

/** The model families the engine trains. */
export const MODEL_KINDS = ['gbdt', 'forest', 'ridge', 'poly2', 'knn', 'mlp'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** A fitted model of one family, with the settings it was fitted with. */
export type FittedModel =
  | { type: 'gbdt'; params: Partial<GbdtParams>; trees: TreeEnsemble }
  | { type: 'forest'; params: Partial<ForestParams>; trees: TreeEnsemble }
  | { type: 'ridge'; params: { alpha: number }; ridge: RidgeModel }
  | { type: 'poly2'; params: { alpha: number; interactionColumns: number[] }; ridge: RidgeModel }
  | { type: 'knn'; params: { k: number; weighting: KnnModel['weighting'] }; knn: KnnModel }
  | { type: 'mlp'; params: Partial<MlpParams>; mlp: MlpModel };

/** Predictions (model space) of a fitted model for every row of `m`. */
export function predictModel(model: FittedModel, m: Matrix): Float64Array {
  switch (model.type) {
    case 'gbdt':
    case 'forest':
      return predictTrees(model.trees, m);
    case 'ridge':
    case 'poly2':
      return predictRidge(model.ridge, m);
    case 'knn': {
      const q = zScores(m, model.knn.mean, model.knn.std);
      const nb = nearest(model.knn.rows, m.nCols, q, m.nRows, model.knn.k);
      return knnCombine(model.knn.y, nb, Math.min(model.knn.k, model.knn.y.length), model.knn.k, model.knn.weighting);
    }
    case 'mlp':
      return predictMlp(model.mlp, m);
  }
}

/** The baseline an explanation is measured against. */
export type Baseline =
  /** Interventional SHAP against one row: by default all zeros in model space (no I/O, no category). */
  | { kind: 'row'; row: Float64Array }
  /** Path-dependent TreeSHAP for trees; other models are explained against `row` (the training means). */
  | { kind: 'path'; row: Float64Array };

/** SHAP values of one row for one model: per input feature (`group[c]` maps model columns to features). */
export interface ModelShap {
  base: number;
  output: number;
  phi: Float64Array;
}

/**
 * Explains row `r` of `m` for one model. Trees: exact TreeSHAP (interventional against the baseline row, or
 * path-dependent); ridge and poly-2: exact linear / pairwise SHAP; kNN and MLP: exact enumeration or KernelSHAP over
 * input features. Interventional TreeSHAP, kNN and MLP take input features as the players (a categorical's one-hot
columns are one player); the linear and pairwise terms of ridge and poly-2 are per column and sum exactly into
features (a product of two columns of one feature gives that feature its whole change). Σ phi = output − base.
 */
export function explainModel(
  model: FittedModel,
  m: Matrix,
  r: number,
  baseline: Baseline,
  group: Int32Array,
  nFeatures: number,
  kernel: Partial<KernelShapOptions> = {},
): ModelShap {
  const nCols = m.nCols;
  const x = m.data.subarray(r * nCols, (r + 1) * nCols);
  const toFeatures = (colPhi: Float64Array): Float64Array => {
    const phi = new Float64Array(nFeatures);
    for (let c = 0; c < nCols; c++) phi[group[c]] += colPhi[c];
    return phi;
  };
  switch (model.type) {
    case 'gbdt':
    case 'forest': {
      if (baseline.kind === 'path') {
        const res = ensembleShapPath(model.trees, x, 0, nCols, pathBuffersFor(model.trees));
        return { base: res.base, output: res.base + sum(res.phi), phi: toFeatures(res.phi) };
      }
      // players are input features: a categorical's one-hot columns move together (exact per feature)
      const res = ensembleShapBaseline(model.trees, x, 0, baseline.row, nCols, group, nFeatures);
      return { base: res.base, output: res.base + sum(res.phi), phi: res.phi };
    }
    case 'ridge':
    case 'poly2': {
      const res = ridgeShap(model.ridge, x, 0, baseline.row, nCols);
      return { base: res.base, output: res.base + sum(res.phi), phi: toFeatures(res.phi) };
    }
    case 'knn': {
      const { players, colsOf } = differingPlayers(x, baseline.row, group, nFeatures);
      const res = shapleyGame(players.length, knnGame(model.knn, x, baseline.row, colsOf), kernel);
      const phi = new Float64Array(nFeatures);
      players.forEach((p, i) => (phi[p] = res.phi[i]));
      return { base: res.base, output: res.output, phi };
    }
    case 'mlp': {
      const f = (rows: Float64Array, n: number): Float64Array => predictModel(model, { nRows: n, nCols, data: rows });
      const res = kernelShap(f, x, baseline.row, group, nFeatures, kernel);
      return { base: res.base, output: res.output, phi: res.phi };
    }
  }
}

function sum(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}

/** Whether a model family is explained exactly by TreeSHAP (and so supports the path-dependent baseline). */
export function isTreeModel(kind: ModelKind): boolean {
  return kind === 'gbdt' || kind === 'forest';
}
