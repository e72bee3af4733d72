import { applyBins, fitBins, MAX_VALUE_BINS } from './binning.js';
import type { TreeEnsemble } from './ensemble-trees.js';
import { TreeGrower } from './grow.js';
import { Rng } from './rng.js';
import type { Matrix } from './table.js';
import { leafOf, type Tree } from './tree.js';

/** Gradient boosting settings (squared error). Defaults follow scikit-learn's HistGradientBoostingRegressor. */
export interface GbdtParams {
  learningRate: number;
  maxIter: number;
  maxLeafNodes: number;
  /** 0 = no depth limit. */
  maxDepth: number;
  minSamplesLeaf: number;
  l2: number;
  maxBins: number;
  /** Stop when the validation loss has not improved by more than `tol` for `nIterNoChange` iterations. */
  nIterNoChange: number;
  tol: number;
  seed: number;
}

export const GBDT_DEFAULTS: GbdtParams = {
  learningRate: 0.1,
  maxIter: 100,
  maxLeafNodes: 31,
  maxDepth: 0,
  minSamplesLeaf: 20,
  l2: 0,
  maxBins: MAX_VALUE_BINS,
  nIterNoChange: 10,
  tol: 1e-7,
  seed: 0,
};

export interface GbdtFit {
  model: TreeEnsemble;
  /** Validation mean squared error after each iteration (empty without a validation set). */
  validationLoss: number[];
  /** Trees kept: all of them without validation, else the iteration with the lowest validation loss. */
  bestIterations: number;
}

/**
 * Fits gradient-boosted trees: leaf-wise growth on quantile bins, native missing values, shrinkage, L2 and, with a
 * validation set, early stopping. The model is truncated to the iteration with the lowest validation loss.
 */
export function fitGbdt(x: Matrix, y: Float64Array, params: Partial<GbdtParams> = {}, valid?: { x: Matrix; y: Float64Array }): GbdtFit {
  const p = { ...GBDT_DEFAULTS, ...params };
  const n = x.nRows;
  if (n === 0) throw new RangeError('no training rows');
  const mapper = fitBins(x, p.maxBins);
  const grower = new TreeGrower(applyBins(mapper, x), mapper);
  let base = 0;
  for (let i = 0; i < n; i++) base += y[i];
  base /= n;
  const raw = new Float64Array(n).fill(base);
  const grad = new Float64Array(n);
  const idx = new Int32Array(n);
  const rng = new Rng(p.seed);
  const trees: Tree[] = [];
  const validationLoss: number[] = [];
  const vRaw = valid ? new Float64Array(valid.x.nRows).fill(base) : null;
  let bestLoss = Infinity;
  let bestIter = 0;
  let sinceBest = 0;
  const growParams = {
    maxLeafNodes: p.maxLeafNodes,
    maxDepth: p.maxDepth,
    minSamplesLeaf: p.minSamplesLeaf,
    l2: p.l2,
    shrinkage: p.learningRate,
    featureFraction: 1,
  };
  for (let it = 0; it < p.maxIter; it++) {
    for (let i = 0; i < n; i++) {
      grad[i] = raw[i] - y[i];
      idx[i] = i;
    }
    const tree = grower.grow(idx, n, grad, growParams, rng, (v, start, end) => {
      for (let i = start; i < end; i++) raw[idx[i]] += v;
    });
    trees.push(tree);
    if (valid && vRaw) {
      const vx = valid.x;
      let sse = 0;
      for (let r = 0; r < vx.nRows; r++) {
        vRaw[r] += tree.value[leafOf(tree, vx.data, r * vx.nCols)];
        sse += (vRaw[r] - valid.y[r]) ** 2;
      }
      const loss = sse / vx.nRows;
      validationLoss.push(loss);
      if (loss < bestLoss - p.tol) {
        bestLoss = loss;
        bestIter = it + 1;
        sinceBest = 0;
      } else if (++sinceBest >= p.nIterNoChange) break;
    }
  }
  const keep = valid ? Math.max(1, bestIter) : trees.length;
  return { model: { base, trees: trees.slice(0, keep) }, validationLoss, bestIterations: keep };
}
