// HDBSCAN* over an n × d matrix: core distances, minimum spanning tree of the mutual-reachability graph (dense Prim
// or kd-tree Borůvka, both exact), condensed tree, flat clustering.
import { availableParallelism } from 'node:os';
import { buildKdTree, sharedF64, sharedI32, type BoruvkaState, type KdTree } from './kernels.js';
import { KernelPool } from './pool.js';
import { checkSelectionOptions, selectClusters } from './select.js';
import { condenseTree } from './tree.js';
import type { HdbscanOptions, HdbscanResult, SpanningTree } from './types.js';

/** Below this many rows everything runs in the calling thread (starting workers costs more than it saves). */
const MIN_ROWS_FOR_WORKERS = 4096;
/** 'auto' uses the kd-tree Borůvka up to this dimension and dense Prim above it. */
const AUTO_BORUVKA_MAX_DIM = 16;
/** Nearest neighbours kept per row to seed Borůvka (the core distance still uses all minSamples). */
const SEED_NEIGHBOURS = 16;

/** Checks an n × d row-major matrix: right length, finite values. */
export function checkMatrix(data: Float64Array, n: number, d: number): void {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(d) || d < 1) throw new Error(`cannot cluster a ${n} × ${d} matrix`);
  if (data.length !== n * d) throw new Error(`matrix has ${data.length} values, expected ${n} × ${d} = ${n * d}`);
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i])) throw new Error(`row ${Math.floor(i / d)}, column ${i % d} is ${data[i]}; clustering needs finite values`);
  }
}

function resolveMinSamples(o: HdbscanOptions, n: number): number {
  const m = o.minSamples ?? o.minClusterSize;
  if (!Number.isInteger(m) || m < 1) throw new Error(`min samples must be an integer ≥ 1, not ${m}`);
  return Math.min(m, n);
}

/** Runs HDBSCAN* on `data` (n rows × d columns, row-major). Deterministic: the result does not depend on threads. */
export async function hdbscan(data: Float64Array, n: number, d: number, options: HdbscanOptions): Promise<HdbscanResult> {
  checkMatrix(data, n, d);
  if (!Number.isInteger(options.minClusterSize) || options.minClusterSize < 2) {
    throw new Error(`min cluster size must be an integer ≥ 2, not ${options.minClusterSize}`);
  }
  checkSelectionOptions(options);
  const k = resolveMinSamples(options, n);
  const algo = options.algorithm ?? 'auto';
  if (algo !== 'auto' && algo !== 'prim' && algo !== 'boruvka') throw new Error(`unknown MST algorithm '${algo}' (auto, prim or boruvka)`);
  const algorithm = algo === 'auto' ? (d <= AUTO_BORUVKA_MAX_DIM ? 'boruvka' : 'prim') : algo;
  const wanted = options.threads ?? availableParallelism();
  if (!Number.isInteger(wanted) || wanted < 1) throw new Error(`threads must be an integer ≥ 1, not ${wanted}`);
  const threads = n < MIN_ROWS_FOR_WORKERS ? 1 : wanted;
  const seconds: Record<string, number> = {};
  let t0 = performance.now();
  const lap = (name: string): void => {
    const t = performance.now();
    seconds[name] = (t - t0) / 1000;
    t0 = t;
  };
  const pool = new KernelPool(threads);
  let mst: SpanningTree;
  let coreDistances: Float64Array;
  try {
    const tree = buildKdTree(data, n, d);
    lap('kdTree');
    const core2 = sharedF64(n); // tree order
    const kept = Math.min(k, SEED_NEIGHBOURS);
    const nbr = sharedI32(n * kept);
    const nbrD = sharedF64(n * kept);
    await pool.coreKd(tree, k, kept, core2, nbr, nbrD);
    coreDistances = new Float64Array(n);
    for (let i = 0; i < n; i++) coreDistances[tree.perm[i]] = Math.sqrt(core2[i]);
    lap('coreDistances');
    mst = algorithm === 'boruvka' ? await boruvkaMst(pool, tree, core2, kept, nbr, nbrD) : await primMst(pool, data, n, d, tree, core2);
    lap('spanningTree');
  } finally {
    await pool.close();
  }
  const condensed = condenseTree(n, mst, options.minClusterSize);
  const flat = selectClusters(condensed, options);
  lap('hierarchy');
  return { ...flat, tree: condensed, coreDistances, mst, info: { algorithm, threads, minSamples: k, seconds } };
}

async function primMst(pool: KernelPool, data: Float64Array, n: number, d: number, tree: KdTree, treeCore2: Float64Array): Promise<SpanningTree> {
  const x = sharedF64(n * d);
  x.set(data);
  const core2 = sharedF64(n);
  for (let i = 0; i < n; i++) core2[tree.perm[i]] = treeCore2[i];
  const T = pool.threads;
  const state = {
    x,
    n,
    d,
    core2,
    slotW: sharedF64(2 * T),
    slotJ: sharedI32(2 * T),
    slotSrc: sharedI32(2 * T),
    outFrom: sharedI32(n - 1),
    outTo: sharedI32(n - 1),
    outW: sharedF64(n - 1),
  };
  await pool.prim(state);
  return {
    from: Int32Array.from(state.outFrom),
    to: Int32Array.from(state.outTo),
    weight: Float64Array.from(state.outW, Math.sqrt),
  };
}

/**
 * Borůvka: every round joins each component to its nearest other component (at most log2(n) rounds). Each row
 * remembers the best edge it has seen (first from its nearest neighbours); those still leaving the row's component
 * give every component a tight starting bound, so most rows need no search.
 */
async function boruvkaMst(pool: KernelPool, tree: KdTree, core2: Float64Array, kept: number, nbr: Int32Array, nbrD: Float64Array): Promise<SpanningTree> {
  const n = tree.n;
  const nodeCore = sharedF64(tree.nodes);
  for (let node = tree.nodes - 1; node >= 0; node--) {
    const l = tree.left[node];
    if (l < 0) {
      let m = Infinity;
      for (let i = tree.start[node]; i < tree.end[node]; i++) if (core2[i] < m) m = core2[i];
      nodeCore[node] = m;
    } else nodeCore[node] = Math.min(nodeCore[l], nodeCore[tree.right[node]]);
  }
  const st: BoruvkaState = {
    core2,
    comp: sharedI32(n),
    nodeComp: sharedI32(tree.nodes),
    nodeCore,
    compInit: sharedF64(n),
    bestTo: sharedI32(n),
    bestW: sharedF64(n),
  };
  // Known edge per row: the neighbour with the smallest mutual reachability among its k nearest.
  const candTo = new Int32Array(n).fill(-1);
  const candW = new Float64Array(n).fill(Infinity);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < kept; a++) {
      const j = nbr[i * kept + a];
      if (j === i) continue;
      let w = nbrD[i * kept + a];
      if (core2[i] > w) w = core2[i];
      if (core2[j] > w) w = core2[j];
      if (w < candW[i] || (w === candW[i] && j < candTo[i])) {
        candW[i] = w;
        candTo[i] = j;
      }
    }
  }
  const uf = new Int32Array(n);
  for (let i = 0; i < n; i++) uf[i] = st.comp[i] = i;
  const find = (x: number): number => {
    while (uf[x] !== x) {
      uf[x] = uf[uf[x]];
      x = uf[x];
    }
    return x;
  };
  const from = new Int32Array(n - 1);
  const to = new Int32Array(n - 1);
  const weight = new Float64Array(n - 1);
  let edges = 0;
  const compFrom = new Int32Array(n);
  const compTo = new Int32Array(n);
  while (edges < n - 1) {
    for (let node = tree.nodes - 1; node >= 0; node--) {
      const l = tree.left[node];
      if (l < 0) {
        let c = st.comp[tree.start[node]];
        for (let i = tree.start[node] + 1; i < tree.end[node] && c >= 0; i++) if (st.comp[i] !== c) c = -1;
        st.nodeComp[node] = c;
      } else {
        const c = st.nodeComp[l];
        st.nodeComp[node] = c >= 0 && c === st.nodeComp[tree.right[node]] ? c : -1;
      }
    }
    st.compInit.fill(Infinity);
    for (let i = 0; i < n; i++) {
      const j = candTo[i];
      if (j < 0 || st.comp[j] === st.comp[i]) candTo[i] = -1;
      else if (candW[i] < st.compInit[st.comp[i]]) st.compInit[st.comp[i]] = candW[i];
    }
    await pool.boruvka(tree, st);
    // Each component's lightest known edge (ties: smallest row, then smallest partner).
    compFrom.fill(-1);
    const compW = st.compInit.fill(Infinity);
    for (let i = 0; i < n; i++) {
      if (st.bestTo[i] >= 0) {
        candTo[i] = st.bestTo[i];
        candW[i] = st.bestW[i];
      }
      const j = candTo[i];
      if (j < 0) continue;
      const c = st.comp[i];
      const w = candW[i];
      if (w < compW[c] || (w === compW[c] && i < compFrom[c])) {
        compW[c] = w;
        compFrom[c] = i;
        compTo[c] = j;
      }
    }
    const before = edges;
    for (let c = 0; c < n; c++) {
      if (compFrom[c] < 0) continue;
      const a = compFrom[c];
      const b = compTo[c];
      const ra = find(a);
      const rb = find(b);
      if (ra === rb) continue;
      uf[ra] = rb;
      from[edges] = tree.perm[a];
      to[edges] = tree.perm[b];
      weight[edges++] = Math.sqrt(compW[c]);
    }
    if (edges === before) throw new Error('Borůvka made no progress (internal error)');
    for (let i = 0; i < n; i++) st.comp[i] = find(i);
  }
  return { from, to, weight };
}
