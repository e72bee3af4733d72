import { applyBins, fitBins, MAX_VALUE_BINS } from './binning.js';
import type { TreeEnsemble } from './ensemble-trees.js';
import { TreeGrower } from './grow.js';
import { Rng } from './rng.js';
import type { Matrix } from './table.js';
import type { Tree } from './tree.js';

/** Random forest settings. */
export interface ForestParams {
  nTrees: number;
  /** Depth cap (keeps TreeSHAP, which is quadratic in depth, fast). */
  maxDepth: number;
  minSamplesLeaf: number;
  /** Fraction of the columns tried at each split. */
  maxFeatures: number;
  /** Draw each tree's rows with replacement (n draws); false = every tree sees every row once. */
  bootstrap: boolean;
  maxBins: number;
  seed: number;
}

export const FOREST_DEFAULTS: ForestParams = {
  nTrees: 100,
  maxDepth: 12,
  minSamplesLeaf: 2,
  maxFeatures: 0.5,
  bootstrap: true,
  maxBins: MAX_VALUE_BINS,
  seed: 0,
};

/**
 * Fits a random forest on the same bins and tree grower as the GBDT. Each tree fits y − mean(y) on its bootstrap
 * sample with leaf values divided by the number of trees, so the forest is a sum of trees like a boosted model:
 * output = mean(y) + Σ tree(x), the average of the trees' predictions.
 */
export function fitForest(x: Matrix, y: Float64Array, params: Partial<ForestParams> = {}): TreeEnsemble {
  const p = { ...FOREST_DEFAULTS, ...params };
  const n = x.nRows;
  if (n === 0) throw new RangeError('no training rows');
  if (p.maxDepth < 1 || p.maxDepth > 30) throw new RangeError('forest maxDepth must be in 1…30');
  const mapper = fitBins(x, p.maxBins);
  const grower = new TreeGrower(applyBins(mapper, x), mapper);
  let base = 0;
  for (let i = 0; i < n; i++) base += y[i];
  base /= n;
  const grad = new Float64Array(n);
  for (let i = 0; i < n; i++) grad[i] = base - y[i];
  const rng = new Rng(p.seed);
  const idx = new Int32Array(n);
  const trees: Tree[] = [];
  const growParams = {
    maxLeafNodes: 2 ** p.maxDepth,
    maxDepth: p.maxDepth,
    minSamplesLeaf: p.minSamplesLeaf,
    l2: 0,
    shrinkage: 1 / p.nTrees,
    featureFraction: p.maxFeatures,
  };
  for (let t = 0; t < p.nTrees; t++) {
    if (p.bootstrap) {
      for (let i = 0; i < n; i++) idx[i] = rng.int(n);
      // Sorted rows keep the histogram loop's memory access sequential.
      idx.sort();
    } else for (let i = 0; i < n; i++) idx[i] = i;
    trees.push(grower.grow(idx, n, grad, growParams, rng));
  }
  return { base, trees };
}
