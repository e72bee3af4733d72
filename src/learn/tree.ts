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
  // Numbers read from a file: a null or a string would silently become 0 (or NaN) in the typed arrays.
  for (let i = 0; i < n; i++) {
    const f = a.feature[i];
    if (!Number.isInteger(f) || !Number.isInteger(a.left[i]) || !Number.isInteger(a.right[i])) throw new RangeError(`tree node ${i}: feature and child ids must be whole numbers`);
    if (!Number.isFinite(a.value[i]) || !Number.isFinite(a.cover[i])) throw new RangeError(`tree node ${i}: value and cover must be finite numbers`);
    // a split's threshold may be ±Infinity (every row one way), never NaN or null
    if (f >= 0 && (typeof a.threshold[i] !== 'number' || Number.isNaN(a.threshold[i]))) throw new RangeError(`tree node ${i}: the threshold must be a number`);
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

/**
 * The deepest tree a model may hold. Explanations walk a tree recursively, one stack frame per level; trained
 * trees are far shallower (depth ≤ 64 in practice, `train`'s limits keep them so), and a file claiming more is
 * refused before anything walks it.
 */
export const MAX_TREE_DEPTH = 512;

/**
 * Checks that child ids point forward inside the arrays, so prediction cannot loop or read out of bounds, and that
 * no leaf is deeper than MAX_TREE_DEPTH (measured without recursion: children come after their parent, so one
 * forward pass gives every node's depth).
 */
export function validateTree(tree: Tree): void {
  const n = tree.feature.length;
  if (n === 0) throw new RangeError('a tree needs at least one node');
  const depth = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (tree.feature[i] < 0) continue;
    const l = tree.left[i];
    const r = tree.right[i];
    if (!(l > i && l < n && r > i && r < n)) throw new RangeError(`tree node ${i} has bad children`);
    const d = depth[i] + 1;
    if (d > MAX_TREE_DEPTH) throw new RangeError(`a tree deeper than ${MAX_TREE_DEPTH} levels`);
    if (d > depth[l]) depth[l] = d;
    if (d > depth[r]) depth[r] = d;
  }
}
