import type { TreeEnsemble } from './ensemble-trees.js';
import { treeDepth, type Tree } from './tree.js';

/** Which side row `x` takes at internal node `node`: true = left. */
function goesLeft(tree: Tree, node: number, x: ArrayLike<number>, offset: number): boolean {
  const v = x[offset + tree.feature[node]];
  const t = tree.threshold[node];
  return v <= t ? true : v > t ? false : tree.defaultLeft[node] === 1;
}

/** The expected output of a tree over its training rows: leaves weighted by cover. */
export function expectedValue(tree: Tree): number {
  const walk = (node: number): number => {
    if (tree.feature[node] < 0) return tree.value[node];
    const l = tree.left[node];
    const r = tree.right[node];
    return (tree.cover[l] * walk(l) + tree.cover[r] * walk(r)) / (tree.cover[l] + tree.cover[r]);
  };
  return walk(0);
}

/**
 * Scratch space for path-dependent TreeSHAP: the "unique path" of Lundberg et al. (2018, Algorithm 2), one copy per
 * recursion level, as parallel arrays.
 */
class PathBuffers {
  feature: Int32Array;
  zero: Float64Array;
  one: Float64Array;
  weight: Float64Array;
  constructor(maxDepth: number) {
    const size = ((maxDepth + 2) * (maxDepth + 3)) / 2;
    this.feature = new Int32Array(size);
    this.zero = new Float64Array(size);
    this.one = new Float64Array(size);
    this.weight = new Float64Array(size);
  }
}

/** Adds a feature to the path at position `depth` (offset `o`), updating the permutation weights. */
function extendPath(p: PathBuffers, o: number, depth: number, zero: number, one: number, feature: number): void {
  p.feature[o + depth] = feature;
  p.zero[o + depth] = zero;
  p.one[o + depth] = one;
  p.weight[o + depth] = depth === 0 ? 1 : 0;
  for (let i = depth - 1; i >= 0; i--) {
    p.weight[o + i + 1] += (one * p.weight[o + i] * (i + 1)) / (depth + 1);
    p.weight[o + i] = (zero * p.weight[o + i] * (depth - i)) / (depth + 1);
  }
}

/** Removes the element at `index` from the path (undoing its extension). */
function unwindPath(p: PathBuffers, o: number, depth: number, index: number): void {
  const one = p.one[o + index];
  const zero = p.zero[o + index];
  let next = p.weight[o + depth];
  for (let i = depth - 1; i >= 0; i--) {
    if (one !== 0) {
      const tmp = p.weight[o + i];
      p.weight[o + i] = (next * (depth + 1)) / ((i + 1) * one);
      next = tmp - (p.weight[o + i] * zero * (depth - i)) / (depth + 1);
    } else {
      p.weight[o + i] = (p.weight[o + i] * (depth + 1)) / (zero * (depth - i));
    }
  }
  for (let i = index; i < depth; i++) {
    p.feature[o + i] = p.feature[o + i + 1];
    p.zero[o + i] = p.zero[o + i + 1];
    p.one[o + i] = p.one[o + i + 1];
  }
}

/** The total permutation weight the path would have with element `index` unwound (without changing the path). */
function unwoundPathSum(p: PathBuffers, o: number, depth: number, index: number): number {
  const one = p.one[o + index];
  const zero = p.zero[o + index];
  let next = p.weight[o + depth];
  let total = 0;
  for (let i = depth - 1; i >= 0; i--) {
    if (one !== 0) {
      const tmp = (next * (depth + 1)) / ((i + 1) * one);
      total += tmp;
      next = p.weight[o + i] - tmp * zero * ((depth - i) / (depth + 1));
    } else if (zero !== 0) {
      total += p.weight[o + i] / zero / ((depth - i) / (depth + 1));
    }
  }
  return total;
}

/**
 * Path-dependent TreeSHAP (Lundberg, Erion & Lee 2018, Algorithm 2): exact Shapley values of the game
 * v(S) = E[f(x) | x_S], the expectation taken over the tree's training distribution as recorded in the covers.
 * Adds each column's value to `phi` (length = number of model columns); Σ phi = f(x) − expectedValue(tree).
 */
export function treeShapPath(tree: Tree, x: ArrayLike<number>, offset: number, phi: Float64Array, buffers?: PathBuffers): void {
  const p = buffers ?? new PathBuffers(treeDepth(tree));
  const recurse = (node: number, depth: number, parentOffset: number, parentZero: number, parentOne: number, parentFeature: number): void => {
    // This level's copy of the path starts right after the parent's.
    const o = parentOffset + depth;
    // Paths are short: a plain loop beats four copyWithin calls.
    for (let i = 0; i < depth; i++) {
      p.feature[o + i] = p.feature[parentOffset + i];
      p.zero[o + i] = p.zero[parentOffset + i];
      p.one[o + i] = p.one[parentOffset + i];
      p.weight[o + i] = p.weight[parentOffset + i];
    }
    extendPath(p, o, depth, parentZero, parentOne, parentFeature);
    const f = tree.feature[node];
    if (f < 0) {
      const v = tree.value[node];
      for (let i = 1; i <= depth; i++) {
        const w = unwoundPathSum(p, o, depth, i);
        phi[p.feature[o + i]] += w * (p.one[o + i] - p.zero[o + i]) * v;
      }
      return;
    }
    const left = goesLeft(tree, node, x, offset);
    const hot = left ? tree.left[node] : tree.right[node];
    const cold = left ? tree.right[node] : tree.left[node];
    const cover = tree.cover[node];
    const hotZero = tree.cover[hot] / cover;
    const coldZero = tree.cover[cold] / cover;
    let inZero = 1;
    let inOne = 1;
    let d = depth;
    // A feature split on again further down: undo its earlier extension and redo it here.
    let k = 0;
    for (; k <= d; k++) if (p.feature[o + k] === f) break;
    if (k !== d + 1) {
      inZero = p.zero[o + k];
      inOne = p.one[o + k];
      unwindPath(p, o, d, k);
      d -= 1;
    }
    recurse(hot, d + 1, o, hotZero * inZero, inOne, f);
    recurse(cold, d + 1, o, coldZero * inZero, 0, f);
  };
  recurse(0, 0, 0, 1, 1, -1);
}

/** Reusable scratch for explaining many rows with one ensemble. */
export function pathBuffersFor(model: TreeEnsemble): PathBuffers {
  let d = 0;
  for (const t of model.trees) d = Math.max(d, treeDepth(t));
  return new PathBuffers(d);
}

/** Path-dependent SHAP values of a tree ensemble for one row; base = the ensemble's expected output. */
export function ensembleShapPath(model: TreeEnsemble, x: ArrayLike<number>, offset: number, nCols: number, buffers?: PathBuffers): { base: number; phi: Float64Array } {
  const phi = new Float64Array(nCols);
  const buf = buffers ?? pathBuffersFor(model);
  let base = model.base;
  for (const t of model.trees) {
    treeShapPath(t, x, offset, phi, buf);
    base += expectedValue(t);
  }
  return { base, phi };
}

/** n! for small n, as a double. */
const FACT: number[] = [1];
function factorial(n: number): number {
  while (FACT.length <= n) FACT.push(FACT[FACT.length - 1] * FACT.length);
  return FACT[n];
}

/**
 * Interventional TreeSHAP against one baseline row r: exact Shapley values of v(S) = f(x_S, r_rest), the players
 * being groups of columns (`group[c]` = player of column c: all one-hot columns of a categorical are one player, so
 * the values are exact per input feature, not per column summed). Walking the
 * tree, a node where x and r take the same side is followed once; where they differ, the x side needs the feature
 * in S (set A) and the r side needs it out of S (set B). A leaf with value v reached with sets A and B is the game
 * v·[A ⊆ S, B ∩ S = ∅], whose Shapley values are v·(|A|−1)!|B|!/(|A|+|B|)! for each member of A and
 * −v·|A|!(|B|−1)!/(|A|+|B|)! for each member of B. A feature with x_j = r_j never differs, so it gets exactly 0,
 * and Σ phi = f(x) − f(r).
 */
export function treeShapBaseline(
  tree: Tree,
  x: ArrayLike<number>,
  xOffset: number,
  r: ArrayLike<number>,
  rOffset: number,
  phi: Float64Array,
  state: Int8Array,
  stack: Int32Array,
  group?: ArrayLike<number>,
): void {
  // state[f]: 0 = not constrained, 1 = in A (x side), 2 = in B (baseline side). stack lists constrained features.
  const recurse = (node: number, nA: number, nB: number): void => {
    const col = tree.feature[node];
    if (col < 0) {
      const m = nA + nB;
      if (m === 0) return;
      const v = tree.value[node];
      const wA = nA > 0 ? (v * factorial(nA - 1) * factorial(nB)) / factorial(m) : 0;
      const wB = nB > 0 ? (v * factorial(nA) * factorial(nB - 1)) / factorial(m) : 0;
      for (let i = 0; i < m; i++) {
        const g = stack[i];
        if (state[g] === 1) phi[g] += wA;
        else phi[g] -= wB;
      }
      return;
    }
    const f = group ? group[col] : col;
    const xl = goesLeft(tree, node, x, xOffset);
    const rl = goesLeft(tree, node, r, rOffset);
    const xs = xl ? tree.left[node] : tree.right[node];
    if (xl === rl) {
      recurse(xs, nA, nB);
      return;
    }
    const rs = rl ? tree.left[node] : tree.right[node];
    const st = state[f];
    if (st === 1) recurse(xs, nA, nB);
    else if (st === 2) recurse(rs, nA, nB);
    else {
      const m = nA + nB;
      stack[m] = f;
      state[f] = 1;
      recurse(xs, nA + 1, nB);
      state[f] = 2;
      recurse(rs, nA, nB + 1);
      state[f] = 0;
    }
  };
  recurse(0, 0, 0);
}

/** The tree's output for one row (no allocation). */
function treeOutput(tree: Tree, x: ArrayLike<number>, offset: number): number {
  let node = 0;
  while (tree.feature[node] >= 0) node = goesLeft(tree, node, x, offset) ? tree.left[node] : tree.right[node];
  return tree.value[node];
}

/**
 * Interventional SHAP values of a tree ensemble for one row against baseline `r`; base = f(r). With `group` (column
 * → player, `nPlayers` players) the values are per player (exact Shapley values of the grouped game); without, per
 * column (`nCols` players).
 */
export function ensembleShapBaseline(
  model: TreeEnsemble,
  x: ArrayLike<number>,
  xOffset: number,
  r: ArrayLike<number>,
  nCols: number,
  group?: ArrayLike<number>,
  nPlayers: number = nCols,
): { base: number; phi: Float64Array } {
  const phi = new Float64Array(group ? nPlayers : nCols);
  const state = new Int8Array(phi.length);
  let depth = 1;
  for (const t of model.trees) depth = Math.max(depth, treeDepth(t) + 1);
  const stack = new Int32Array(Math.min(depth, phi.length) + 1);
  let base = model.base;
  for (const t of model.trees) {
    treeShapBaseline(t, x, xOffset, r, 0, phi, state, stack, group);
    base += treeOutput(t, r, 0);
  }
  return { base, phi };
}
