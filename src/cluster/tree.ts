// From a minimum spanning tree of the mutual-reachability graph to the condensed cluster tree of HDBSCAN*.
//
// Edges of equal weight are removed together, as in Campello et al.'s definition (the hierarchy is the set of
// connected components of the graph at every distance threshold): a cluster may split into more than two children
// at one λ. The hdbscan Python package instead merges tied edges one by one in sort order, which can create
// zero-lifetime intermediate clusters; with distinct weights both give the same tree.
import type { ClusterNode, CondensedTree, SpanningTree } from './types.js';

/** λ of a split at distance w (λ = 1/w; a split at distance 0 — exact duplicates — is at λ = ∞). */
export function lambdaOf(w: number): number {
  return w > 0 ? 1 / w : Infinity;
}

/** a − b where equal values (Infinity included) give 0. */
function lambdaDiff(a: number, b: number): number {
  return a === b ? 0 : a - b;
}

/** Single-linkage hierarchy with n-ary merges at tied weights. Nodes 0..n-1 are rows, n.. are merges. */
interface Linkage {
  root: number;
  weight: Float64Array;
  size: Int32Array;
  childStart: Int32Array;
  childList: Int32Array;
}

function edgeOrder(mst: SpanningTree): Int32Array {
  const m = mst.weight.length;
  const idx = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const w = mst.weight[i];
    if (!(w >= 0)) throw new Error(`spanning-tree edge ${i} has weight ${w}; weights must be finite and ≥ 0`);
    idx[i] = i;
  }
  const w = mst.weight;
  idx.sort((a, b) => w[a] - w[b] || a - b);
  return idx;
}

function buildLinkage(n: number, mst: SpanningTree): Linkage {
  if (mst.weight.length !== n - 1) throw new Error(`a spanning tree of ${n} rows has ${n - 1} edges, not ${mst.weight.length}`);
  const maxNodes = 2 * n - 1;
  const weight = new Float64Array(maxNodes);
  const size = new Int32Array(maxNodes);
  const minRow = new Int32Array(maxNodes);
  const childStart = new Int32Array(n + 1);
  const childList = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    size[i] = 1;
    minRow[i] = i;
  }
  const uf = new Int32Array(n);
  const nodeOf = new Int32Array(n);
  for (let i = 0; i < n; i++) uf[i] = nodeOf[i] = i;
  const find = (x: number): number => {
    while (uf[x] !== x) {
      uf[x] = uf[uf[x]];
      x = uf[x];
    }
    return x;
  };
  const order = edgeOrder(mst);
  const mark = new Uint8Array(n);
  const touched: number[] = [];
  const oldNode: number[] = [];
  let next = n;
  let used = 0;
  let merges = 0;
  for (let g0 = 0; g0 < order.length; ) {
    const w = mst.weight[order[g0]];
    let g1 = g0 + 1;
    while (g1 < order.length && mst.weight[order[g1]] === w) g1++;
    // Components just below this level: the roots touched by the group's edges, before any of its unions.
    touched.length = oldNode.length = 0;
    for (let e = g0; e < g1; e++) {
      for (const r of [find(mst.from[order[e]]), find(mst.to[order[e]])]) {
        if (!mark[r]) {
          mark[r] = 1;
          touched.push(r);
          oldNode.push(nodeOf[r]);
        }
      }
    }
    for (let e = g0; e < g1; e++) {
      const ra = find(mst.from[order[e]]);
      const rb = find(mst.to[order[e]]);
      if (ra === rb) throw new Error('the spanning-tree edges contain a cycle');
      if (size[nodeOf[ra]] < size[nodeOf[rb]]) uf[ra] = rb;
      else uf[rb] = ra;
      merges++;
    }
    // Group the old components by their new root; children ordered by smallest row.
    const items = touched.map((r, i) => ({ root: find(r), node: oldNode[i] }));
    items.sort((a, b) => a.root - b.root || minRow[a.node] - minRow[b.node]);
    for (let i = 0; i < items.length; ) {
      let j = i;
      const node = next++;
      weight[node] = w;
      childStart[node - n] = used;
      let s = 0;
      let mr = n;
      for (; j < items.length && items[j].root === items[i].root; j++) {
        childList[used++] = items[j].node;
        s += size[items[j].node];
        mr = Math.min(mr, minRow[items[j].node]);
      }
      childStart[node - n + 1] = used;
      size[node] = s;
      minRow[node] = mr;
      nodeOf[items[i].root] = node;
      i = j;
    }
    for (const r of touched) mark[r] = 0;
    g0 = g1;
  }
  if (merges !== n - 1) throw new Error('the spanning-tree edges do not connect all rows');
  // Nodes were numbered in creation order; childStart for node k covers [childStart[k-n], childStart[k-n+1]).
  return { root: n === 1 ? 0 : next - 1, weight, size, childStart, childList };
}

/**
 * Condenses the single-linkage hierarchy of a mutual-reachability spanning tree: walking down from the root, a
 * split into two or more parts of ≥ minClusterSize rows gives new child clusters; smaller parts leave their cluster
 * as rows at that λ; a cluster with one large part continues as that part.
 */
export function condenseTree(n: number, mst: SpanningTree, minClusterSize: number): CondensedTree {
  if (!Number.isInteger(n) || n < 1) throw new Error(`cannot cluster ${n} rows`);
  if (!Number.isInteger(minClusterSize) || minClusterSize < 2) {
    throw new Error(`min cluster size must be an integer ≥ 2, not ${minClusterSize}`);
  }
  const lk = buildLinkage(n, mst);
  const pointCluster = new Int32Array(n);
  const pointLambda = new Float64Array(n);
  const parent: number[] = [-1];
  const birth: number[] = [0];
  const csize: number[] = [n];
  const children: number[][] = [[]];
  const work: number[] = [];
  const leave = (start: number, cluster: number, lambda: number): void => {
    work.push(start);
    while (work.length) {
      const x = work.pop()!;
      if (x < n) {
        pointCluster[x] = cluster;
        pointLambda[x] = lambda;
      } else {
        for (let k = lk.childStart[x - n]; k < lk.childStart[x - n + 1]; k++) work.push(lk.childList[k]);
      }
    }
  };
  const queue: [number, number][] = [[0, lk.root]];
  for (let qi = 0; qi < queue.length; qi++) {
    const c = queue[qi][0];
    let node = queue[qi][1];
    if (node < n) {
      leave(node, c, 0); // a single row: nothing ever splits
      continue;
    }
    for (;;) {
      const lambda = lambdaOf(lk.weight[node]);
      const k0 = lk.childStart[node - n];
      const k1 = lk.childStart[node - n + 1];
      let big = 0;
      let lastBig = -1;
      for (let k = k0; k < k1; k++) {
        const ch = lk.childList[k];
        if (lk.size[ch] >= minClusterSize) {
          big++;
          lastBig = ch;
        } else leave(ch, c, lambda);
      }
      if (big === 1) {
        node = lastBig;
        continue;
      }
      if (big >= 2) {
        for (let k = k0; k < k1; k++) {
          const ch = lk.childList[k];
          if (lk.size[ch] < minClusterSize) continue;
          const id = parent.length;
          parent.push(c);
          birth.push(lambda);
          csize.push(lk.size[ch]);
          children.push([]);
          children[c].push(id);
          queue.push([id, ch]);
        }
      }
      break;
    }
  }
  return finishTree(n, minClusterSize, parent, birth, csize, children, pointCluster, pointLambda);
}

function finishTree(
  n: number,
  minClusterSize: number,
  parent: number[],
  birth: number[],
  csize: number[],
  children: number[][],
  pointCluster: Int32Array,
  pointLambda: Float64Array,
): CondensedTree {
  const m = parent.length;
  const death = new Float64Array(m);
  const stability = new Float64Array(m);
  const direct = new Int32Array(m);
  for (let p = 0; p < n; p++) {
    const c = pointCluster[p];
    direct[c]++;
    if (pointLambda[p] > death[c]) death[c] = pointLambda[p];
    stability[c] += lambdaDiff(pointLambda[p], birth[c]);
  }
  for (let c = 1; c < m; c++) {
    const pc = parent[c];
    if (birth[c] > death[pc]) death[pc] = birth[c];
    stability[pc] += lambdaDiff(birth[c], birth[pc]) * csize[c];
  }
  const lambdaMax = Float64Array.from(death);
  for (let c = m - 1; c > 0; c--) if (lambdaMax[c] > lambdaMax[parent[c]]) lambdaMax[parent[c]] = lambdaMax[c];
  // Lay rows out so that each cluster's subtree is contiguous: its direct rows first, then each child's block.
  const start = new Int32Array(m);
  const end = new Int32Array(m);
  const stack = [0];
  let pos = 0;
  while (stack.length) {
    const c = stack.pop()!;
    start[c] = pos;
    pos += direct[c];
    for (let k = children[c].length - 1; k >= 0; k--) stack.push(children[c][k]);
  }
  for (let c = 0; c < m; c++) end[c] = start[c] + csize[c];
  const order = new Int32Array(n);
  const fill = Int32Array.from(start);
  for (let p = 0; p < n; p++) order[fill[pointCluster[p]]++] = p;
  const clusters: ClusterNode[] = [];
  for (let c = 0; c < m; c++) {
    clusters.push({
      id: c,
      parent: parent[c],
      children: children[c],
      size: csize[c],
      lambdaBirth: birth[c],
      lambdaDeath: death[c],
      lambdaMax: lambdaMax[c],
      stability: stability[c],
      selected: false,
      label: -1,
      start: start[c],
      end: end[c],
      directCount: direct[c],
    });
  }
  return { n, minClusterSize, clusters, pointCluster, pointLambda, order };
}

/** Rows of a cluster and all its descendants (a view into tree.order). */
export function clusterRows(tree: CondensedTree, id: number): Int32Array {
  const c = tree.clusters[id];
  return tree.order.subarray(c.start, c.end);
}

/** Rows that leave this cluster directly (not through a child cluster), each with the λ at which it leaves. */
export function directMembers(tree: CondensedTree, id: number): { rows: Int32Array; lambdas: Float64Array } {
  const c = tree.clusters[id];
  const rows = tree.order.subarray(c.start, c.start + c.directCount);
  return { rows, lambdas: Float64Array.from(rows, (r) => tree.pointLambda[r]) };
}
