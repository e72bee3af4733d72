/**
 * One regression tree as flat arrays, indexed by node id (the root is 0). An internal node sends x to `left` when
 * x[feature] ≤ threshold, to `right` when it is greater, and to the default side when it is missing (NaN). A leaf
 * has feature −1 and carries `value`. `cover` is the number of training rows that reached the node (for GBDT and
 * XGBoost models the sum of hessians, the same thing for squared error); path-dependent TreeSHAP weighs by it.
 */
export interface Tree {
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
  cover: Float64Array;
  defaultLeft: Uint8Array;
}

/** The leaf that row `x` (model features, NaN = missing) reaches. */
export function leafOf(tree: Tree, x: ArrayLike<number>, offset = 0): number {
  const { feature, threshold, left, right, defaultLeft } = tree;
  let node = 0;
  for (;;) {
    const f = feature[node];
    if (f < 0) return node;
    const v = x[offset + f];
    if (v <= threshold[node]) node = left[node];
    else if (v > threshold[node]) node = right[node];
    else node = defaultLeft[node] ? left[node] : right[node];
  }
}

/** The tree's output for one row. */
export function predictTree(tree: Tree, x: ArrayLike<number>, offset = 0): number {
  return tree.value[leafOf(tree, x, offset)];
}

/** Number of nodes. */
export function treeSize(tree: Tree): number {
  return tree.feature.length;
}

/** Depth of the deepest leaf (a lone leaf has depth 0). */
export function treeDepth(tree: Tree): number {
  let max = 0;
  const walk = (node: number, d: number): void => {
    if (tree.feature[node] < 0) {
      if (d > max) max = d;
      return;
    }
    walk(tree.left[node], d + 1);
    walk(tree.right[node], d + 1);
  };
  walk(0, 0);
  return max;
}

/** Builds a tree from per-node arrays (plain numbers), as read from a model file. */
export function treeFromArrays(a: {
  feature: ArrayLike<number>;
  threshold: ArrayLike<number>;
  left: ArrayLike<number>;
  right: ArrayLike<number>;
  value: ArrayLike<number>;
  cover: ArrayLike<number>;
  defaultLeft: ArrayLike<number | boolean>;
}): Tree {
  const n = a.feature.length;
  for (const k of ['threshold', 'left', 'right', 'value', 'cover', 'defaultLeft'] as const) {
    if (a[k].length !== n) throw new RangeError(`tree arrays differ in length (${k})`);
  }
  const tree: Tree = {
    feature: Int32Array.from(a.feature),
    threshold: Float64Array.from(a.threshold),
    left: Int32Array.from(a.left),
    right: Int32Array.from(a.right),
    value: Float64Array.from(a.value),
    cover: Float64Array.from(a.cover),
    defaultLeft: Uint8Array.from(a.defaultLeft, (v) => (v ? 1 : 0)),
  };
  validateTree(tree);
  return tree;
}

/** Checks that child ids point forward inside the arrays, so prediction cannot loop or read out of bounds. */
export function validateTree(tree: Tree): void {
  const n = tree.feature.length;
  if (n === 0) throw new RangeError('a tree needs at least one node');
  for (let i = 0; i < n; i++) {
    if (tree.feature[i] < 0) continue;
    const l = tree.left[i];
    const r = tree.right[i];
    if (!(l > i && l < n && r > i && r < n)) throw new RangeError(`tree node ${i} has bad children`);
  }
}
