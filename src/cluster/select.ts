// Flat clusterings from a condensed tree: excess of mass or leaves, cluster_selection_epsilon, labels, membership
// probabilities and GLOSH outlier scores — with the conventions of the hdbscan Python package (and scikit-learn's
// HDBSCAN, which shares them).
import type { CondensedTree, FlatClustering, SelectionOptions } from './types.js';

/** Validates selection options (one clear error) and fills in the defaults. */
export function checkSelectionOptions(o: SelectionOptions): Required<SelectionOptions> {
  const selection = o.selection ?? 'eom';
  if (selection !== 'eom' && selection !== 'leaf') throw new Error(`unknown cluster selection method '${selection}' (eom or leaf)`);
  const epsilon = o.epsilon ?? 0;
  if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new Error(`cluster selection epsilon must be a finite number ≥ 0, not ${epsilon}`);
  return { minClusterSize: o.minClusterSize, selection, epsilon, allowSingleCluster: o.allowSingleCluster ?? false };
}

/** Unselects every descendant of cluster c. */
function unselectBelow(tree: CondensedTree, sel: boolean[], c: number): void {
  const stack = [...tree.clusters[c].children];
  while (stack.length) {
    const x = stack.pop()!;
    sel[x] = false;
    stack.push(...tree.clusters[x].children);
  }
}

/** Excess of mass: bottom-up, a cluster is kept when its stability is at least the sum of its children's. */
function excessOfMass(tree: CondensedTree, allowSingle: boolean, best: Float64Array): boolean[] {
  const cl = tree.clusters;
  const sel = cl.map(() => false);
  const last = allowSingle ? 0 : 1;
  for (let c = cl.length - 1; c >= last; c--) {
    let sub = 0;
    for (const ch of cl[c].children) sub += best[ch];
    if (sub > best[c]) best[c] = sub;
    else {
      sel[c] = true;
      unselectBelow(tree, sel, c);
    }
  }
  return sel;
}

/** Distance at which a cluster splits off its parent. */
const birthEps = (tree: CondensedTree, c: number): number => 1 / tree.clusters[c].lambdaBirth;

/**
 * Replaces each selected cluster born below distance ε by its first ancestor born above ε (a child of the root
 * stays itself unless the root may be selected). Descendants of a chosen ancestor are dropped.
 */
function epsilonSearch(tree: CondensedTree, sel: boolean[], epsilon: number, allowSingle: boolean): boolean[] {
  const cl = tree.clusters;
  const out = cl.map(() => false);
  for (let c = 1; c < cl.length; c++) {
    if (!sel[c]) continue;
    let pick = c;
    if (birthEps(tree, c) < epsilon) {
      for (let x = c; ; ) {
        const p = cl[x].parent;
        if (p === 0) {
          pick = allowSingle ? 0 : x;
          break;
        }
        if (birthEps(tree, p) > epsilon) {
          pick = p;
          break;
        }
        x = p;
      }
    }
    out[pick] = true;
  }
  // One selected cluster per root-to-leaf path: the highest wins.
  for (let c = 0; c < cl.length; c++) if (out[c]) unselectBelow(tree, out, c);
  return out;
}

/** `best` starts as each cluster's stability; excess of mass raises it to its subtree's where that is larger. */
function chooseClusters(tree: CondensedTree, o: Required<SelectionOptions>, best: Float64Array): boolean[] {
  const cl = tree.clusters;
  if (o.selection === 'eom') {
    const sel = excessOfMass(tree, o.allowSingleCluster, best);
    if (o.epsilon === 0 || cl.length === 1) return sel;
    if (sel[0]) return sel; // only the root (allowed): nothing to merge
    return epsilonSearch(tree, sel, o.epsilon, o.allowSingleCluster);
  }
  // Leaves of the cluster tree; a tree with no split selects nothing (as in the hdbscan package).
  const sel = cl.map((c) => c.id !== 0 && c.children.length === 0);
  return o.epsilon === 0 ? sel : epsilonSearch(tree, sel, o.epsilon, o.allowSingleCluster);
}

/**
 * Picks flat clusters from the tree (marking `selected` and `label` on its nodes) and labels every row: a row
 * belongs to the selected cluster among its ancestors, else it is noise (-1). When the root is the one selected
 * cluster, a row is in it only if it leaves the root at its largest λ (or at λ ≥ 1/ε when ε is set), as in the
 * hdbscan package.
 */
export function selectClusters(tree: CondensedTree, options: SelectionOptions): FlatClustering {
  const o = checkSelectionOptions(options);
  const cl = tree.clusters;
  const best = Float64Array.from(cl, (c) => c.stability);
  const sel = chooseClusters(tree, o, best);
  const selectedClusters: number[] = [];
  for (const c of cl) {
    c.selected = sel[c.id];
    c.label = c.selected ? selectedClusters.length : -1;
    if (c.selected) selectedClusters.push(c.id);
  }
  // The selected ancestor (or self) of every cluster, top-down.
  const owner = new Int32Array(cl.length);
  for (const c of cl) owner[c.id] = c.selected ? c.id : c.parent >= 0 ? owner[c.parent] : -1;
  const n = tree.n;
  const labels = new Int32Array(n).fill(-1);
  const probabilities = new Float64Array(n);
  const outlierScores = new Float64Array(n);
  const rootThreshold = o.epsilon !== 0 ? 1 / o.epsilon : cl[0].lambdaDeath;
  for (let p = 0; p < n; p++) {
    const deepest = tree.pointCluster[p];
    const lam = tree.pointLambda[p];
    const lmax = cl[deepest].lambdaMax;
    outlierScores[p] = lmax === 0 || !Number.isFinite(lam) ? 0 : lmax === Infinity ? 1 : (lmax - lam) / lmax;
    const c = owner[deepest];
    if (c < 0 || (c === 0 && !(lam >= rootThreshold))) continue;
    labels[p] = cl[c].label;
    const death = cl[c].lambdaDeath;
    probabilities[p] = death === 0 || !Number.isFinite(lam) ? 1 : Math.min(lam, death) / death;
  }
  let treeMax = 0;
  for (const c of cl) treeMax = Math.max(treeMax, c.lambdaDeath);
  const counts = new Int32Array(selectedClusters.length);
  for (let p = 0; p < n; p++) if (labels[p] >= 0) counts[labels[p]]++;
  const persistence = Float64Array.from(selectedClusters, (c, k) =>
    treeMax === Infinity || treeMax === 0 || counts[k] === 0 ? 1 : best[c] / (counts[k] * treeMax),
  );
  return { labels, probabilities, outlierScores, selectedClusters, persistence };
}
