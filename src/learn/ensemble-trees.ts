import type { Matrix } from './table.js';
import type { Tree } from './tree.js';

/** A sum of trees: output = base + Σ tree(x). GBDT, random forest and loaded XGBoost models all take this form. */
export interface TreeEnsemble {
  base: number;
  trees: Tree[];
}

/**
 * Predictions of a tree ensemble for every row of `m`. Rows are taken in blocks and every tree is applied to a
 * block before the next, so the block's values stay in cache while the trees stream past.
 */
export function predictTrees(model: TreeEnsemble, m: Matrix): Float64Array {
  const n = m.nRows;
  const nCols = m.nCols;
  const data = m.data;
  const out = new Float64Array(n).fill(model.base);
  const block = 64;
  for (let r0 = 0; r0 < n; r0 += block) {
    const r1 = Math.min(n, r0 + block);
    for (const tree of model.trees) {
      const { feature, threshold, left, right, defaultLeft, value } = tree;
      for (let r = r0, o = r0 * nCols; r < r1; r++, o += nCols) {
        let node = 0;
        let f = feature[0];
        while (f >= 0) {
          const v = data[o + f];
          const t = threshold[node];
          node = v <= t ? left[node] : v > t ? right[node] : defaultLeft[node] ? left[node] : right[node];
          f = feature[node];
        }
        out[r] += value[node];
      }
    }
  }
  return out;
}
