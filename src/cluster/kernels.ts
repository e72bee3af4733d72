// Compute kernels shared by the in-thread path and the worker threads: k-NN core distances, dense Prim, kd-tree
// Borůvka queries. All distances here are squared Euclidean; callers take square roots at the end (monotone, so
// orderings and ties are unchanged). Every array may live in a SharedArrayBuffer.

/** Hands out chunks [start, start + size) of a range; returns -1 when the range is exhausted. */
export type ChunkSource = () => number;

export function sharedF64(len: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(1, len) * 8), 0, len);
}
export function sharedI32(len: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Math.max(1, len) * 4), 0, len);
}

/**
 * Squared distance between rows starting at offsets oi and oj of x, summed four columns at a time; stops early
 * (returning a value ≥ lim) once the partial sum reaches lim. Every kernel uses this one function, so a distance
 * has the same bits wherever it is computed.
 */
export function sqDist(x: Float64Array, oi: number, oj: number, d: number, lim: number): number {
  let acc = 0;
  let t = 0;
  for (; t + 4 <= d; t += 4) {
    const a = x[oi + t] - x[oj + t];
    const b = x[oi + t + 1] - x[oj + t + 1];
    const c = x[oi + t + 2] - x[oj + t + 2];
    const e = x[oi + t + 3] - x[oj + t + 3];
    acc += a * a + b * b + c * c + e * e;
    if (acc >= lim) return acc;
  }
  for (; t < d; t++) {
    const v = x[oi + t] - x[oj + t];
    acc += v * v;
  }
  return acc;
}

/** Keeps the k smallest values seen with an id each, sorted ascending in val[0..count). */
class SmallestK {
  readonly val: Float64Array;
  readonly id: Int32Array;
  count = 0;
  constructor(readonly k: number) {
    this.val = new Float64Array(k);
    this.id = new Int32Array(k);
  }
  reset(): void {
    this.count = 0;
  }
  /** Current k-th smallest, or Infinity while fewer than k were seen. */
  bound(): number {
    return this.count < this.k ? Infinity : this.val[this.k - 1];
  }
  push(v: number, id: number): void {
    const b = this.val;
    let i: number;
    if (this.count < this.k) i = this.count++;
    else if (v >= b[this.k - 1]) return;
    else i = this.k - 1;
    while (i > 0 && b[i - 1] > v) {
      b[i] = b[i - 1];
      this.id[i] = this.id[i - 1];
      i--;
    }
    b[i] = v;
    this.id[i] = id;
  }
}

/** Shared state of a dense Prim run over T threads (double-buffered per-thread candidates). */
export interface PrimState {
  x: Float64Array;
  n: number;
  d: number;
  core2: Float64Array;
  slotW: Float64Array; // 2T
  slotJ: Int32Array; // 2T
  slotSrc: Int32Array; // 2T
  outFrom: Int32Array; // n - 1
  outTo: Int32Array;
  outW: Float64Array; // squared weights
}

/**
 * Thread t of T in a dense Prim over the mutual-reachability graph, starting at row 0. Each thread owns a block of
 * rows, keeps their current distance to the tree, and proposes its nearest row; all threads pick the same winner
 * (smallest weight, then smallest row). Output is identical for every T.
 */
export function primThread(s: PrimState, t: number, T: number, barrier: () => void): void {
  const { x, n, d, core2 } = s;
  const lo = Math.floor((t * n) / T);
  const hi = Math.floor(((t + 1) * n) / T);
  const len = hi - lo;
  // Rows of the block not yet in the tree, kept in increasing order (compacted during each scan) so that rows are
  // read sequentially from memory.
  const rem = new Int32Array(len);
  const dist = new Float64Array(len).fill(Infinity);
  const src = new Int32Array(len);
  for (let r = 0; r < len; r++) rem[r] = r;
  let remLen = len;
  let cur = 0;
  for (let it = 0; it < n - 1; it++) {
    const cc = core2[cur];
    const oc = cur * d;
    const drop = cur - lo;
    let bw = Infinity;
    let bj = -1;
    let kept = 0;
    for (let r = 0; r < remLen; r++) {
      const lj = rem[r];
      if (lj === drop) continue;
      rem[kept++] = lj;
      const j = lj + lo;
      let dj = dist[lj];
      const cj = core2[j];
      if (cc < dj && cj < dj) {
        const oj = j * d;
        const acc = sqDist(x, oc, oj, d, dj);
        if (acc < dj) {
          dj = acc > cc ? acc : cc;
          if (cj > dj) dj = cj;
          dist[lj] = dj;
          src[lj] = cur;
        }
      }
      if (dj < bw) {
        bw = dj;
        bj = j;
      }
    }
    remLen = kept;
    const base = (it & 1) * T;
    s.slotW[base + t] = bw;
    s.slotJ[base + t] = bj;
    s.slotSrc[base + t] = bj >= 0 ? src[bj - lo] : -1;
    barrier();
    let gw = Infinity;
    let gj = -1;
    let gs = -1;
    for (let u = 0; u < T; u++) {
      const w = s.slotW[base + u];
      const j = s.slotJ[base + u];
      if (j >= 0 && (gj < 0 || w < gw || (w === gw && j < gj))) {
        gw = w;
        gj = j;
        gs = s.slotSrc[base + u];
      }
    }
    if (t === 0) {
      s.outFrom[it] = gs;
      s.outTo[it] = gj;
      s.outW[it] = gw;
    }
    cur = gj;
  }
}

/** A kd-tree over rows stored in tree order: row i of the tree is row perm[i] of the input. */
export interface KdTree {
  n: number;
  d: number;
  /** Rows in tree order, n × d. */
  xs: Float64Array;
  perm: Int32Array;
  nodes: number;
  start: Int32Array;
  end: Int32Array;
  /** Child nodes; left = -1 for a leaf. Children have larger indices than their parent. */
  left: Int32Array;
  right: Int32Array;
  /** Bounding boxes, nodes × d. */
  lo: Float64Array;
  hi: Float64Array;
}

/** Builds a kd-tree with median splits on the widest side of each box. */
export function buildKdTree(x: Float64Array, n: number, d: number, leafSize = 32): KdTree {
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const cap = 4 * Math.ceil(n / Math.max(1, leafSize >> 1)) + 3;
  const start = sharedI32(cap);
  const end = sharedI32(cap);
  const left = sharedI32(cap);
  const right = sharedI32(cap);
  const lo = sharedF64(cap * d);
  const hi = sharedF64(cap * d);
  let nodes = 0;
  const key = new Float64Array(n);
  const build = (s: number, e: number): number => {
    const node = nodes++;
    start[node] = s;
    end[node] = e;
    left[node] = right[node] = -1;
    const ob = node * d;
    for (let t = 0; t < d; t++) {
      lo[ob + t] = Infinity;
      hi[ob + t] = -Infinity;
    }
    for (let i = s; i < e; i++) {
      const o = perm[i] * d;
      for (let t = 0; t < d; t++) {
        const v = x[o + t];
        if (v < lo[ob + t]) lo[ob + t] = v;
        if (v > hi[ob + t]) hi[ob + t] = v;
      }
    }
    if (e - s <= leafSize) return node;
    let dim = 0;
    let wide = -1;
    for (let t = 0; t < d; t++) {
      const w = hi[ob + t] - lo[ob + t];
      if (w > wide) {
        wide = w;
        dim = t;
      }
    }
    if (!(wide > 0)) return node; // all rows identical
    for (let i = s; i < e; i++) key[i] = x[perm[i] * d + dim];
    const mid = (s + e) >> 1;
    selectNth(perm, key, s, e - 1, mid);
    left[node] = build(s, mid);
    right[node] = build(mid, e);
    return node;
  };
  if (n > 0) build(0, n);
  const xs = sharedF64(n * d);
  for (let i = 0; i < n; i++) xs.set(x.subarray(perm[i] * d, perm[i] * d + d), i * d);
  return { n, d, xs, perm, nodes, start, end, left, right, lo, hi };
}

/** Quickselect on perm[s..e] (inclusive) by key[], carrying the keys along; puts the k-th smallest at k. */
function selectNth(perm: Int32Array, key: Float64Array, s: number, e: number, k: number): void {
  while (e > s) {
    const a = key[s];
    const b = key[(s + e) >> 1];
    const c = key[e];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = s;
    let j = e;
    while (i <= j) {
      while (key[i] < pivot) i++;
      while (key[j] > pivot) j--;
      if (i <= j) {
        const tk = key[i];
        key[i] = key[j];
        key[j] = tk;
        const tp = perm[i];
        perm[i] = perm[j];
        perm[j] = tp;
        i++;
        j--;
      }
    }
    if (k <= j) e = j;
    else if (k >= i) s = i;
    else return;
  }
}

/** Squared distance from tree row i to node's box. */
function boxDist2(tr: KdTree, node: number, i: number): number {
  const { d, xs, lo, hi } = tr;
  const oi = i * d;
  const ob = node * d;
  let acc = 0;
  for (let t = 0; t < d; t++) {
    const v = xs[oi + t];
    const l = lo[ob + t];
    if (v < l) {
      const g = l - v;
      acc += g * g;
    } else {
      const h = hi[ob + t];
      if (v > h) {
        const g = v - h;
        acc += g * g;
      }
    }
  }
  return acc;
}

/** Pushes two child nodes with their lower bounds, the farther first so that the nearer is searched first. */
function pushChildren(stack: Int32Array, lb: Float64Array, sp: number, l: number, bl: number, r: number, br: number): number {
  const nearL = bl <= br;
  stack[sp] = nearL ? r : l;
  lb[sp++] = nearL ? br : bl;
  stack[sp] = nearL ? l : r;
  lb[sp++] = nearL ? bl : br;
  return sp;
}

/**
 * Squared core distances (k-th nearest, itself included) for tree rows taken from `chunks`, in tree order; also
 * each row's `kept` ≤ k nearest rows (tree order, nearest first) and their squared distances, n × kept.
 */
export function coreKd(tr: KdTree, k: number, kept: number, out: Float64Array, nbr: Int32Array, nbrD: Float64Array, chunks: ChunkSource, chunk: number): void {
  const { d, xs, start, end, left, right } = tr;
  const heap = new SmallestK(k);
  const stack = new Int32Array(256);
  const stackLb = new Float64Array(256);
  for (let s = chunks(); s >= 0; s = chunks()) {
    const e = Math.min(tr.n, s + chunk);
    for (let i = s; i < e; i++) {
      heap.reset();
      const oi = i * d;
      let sp = 0;
      stack[sp] = 0;
      stackLb[sp++] = 0;
      while (sp > 0) {
        const node = stack[--sp];
        let lim = heap.bound();
        if (stackLb[sp] >= lim) continue;
        const l = left[node];
        if (l < 0) {
          for (let j = start[node]; j < end[node]; j++) {
            const oj = j * d;
            const acc = sqDist(xs, oi, oj, d, lim);
            if (acc < lim) {
              heap.push(acc, j);
              lim = heap.bound();
            }
          }
          continue;
        }
        const r = right[node];
        const bl = boxDist2(tr, l, i);
        const br = boxDist2(tr, r, i);
        sp = pushChildren(stack, stackLb, sp, l, bl, r, br);
      }
      out[i] = heap.val[k - 1];
      nbr.set(heap.id.subarray(0, kept), i * kept);
      nbrD.set(heap.val.subarray(0, kept), i * kept);
    }
  }
}

/** Per-round state of a kd-tree Borůvka, in tree order. */
export interface BoruvkaState {
  core2: Float64Array;
  /** Component of each row. */
  comp: Int32Array;
  /** Component shared by all rows of a node, or -1. */
  nodeComp: Int32Array;
  /** Smallest core² in each node. */
  nodeCore: Float64Array;
  /** Per component: weight of a known edge to another component, the starting bound of its search. */
  compInit: Float64Array;
  /** Output per row: nearest row of another component found with a better weight than the bound, or -1. */
  bestTo: Int32Array;
  bestW: Float64Array;
}

/**
 * For rows taken from `chunks`, the nearest row (in mutual reachability) outside the row's component, searched with
 * the best weight known so far for that component as bound (starting from compInit); rows that cannot beat it
 * report -1.
 */
export function boruvkaQueries(tr: KdTree, st: BoruvkaState, chunks: ChunkSource, chunk: number): void {
  const { d, xs, start, end, left, right } = tr;
  const { core2, comp, nodeComp, nodeCore, bestTo, bestW } = st;
  const compBound = Float64Array.from(st.compInit);
  const stack = new Int32Array(256);
  const stackLb = new Float64Array(256);
  for (let s = chunks(); s >= 0; s = chunks()) {
    const e = Math.min(tr.n, s + chunk);
    for (let i = s; i < e; i++) {
      bestTo[i] = -1;
      const c = comp[i];
      const ci = core2[i];
      let bound = compBound[c];
      if (ci >= bound) continue;
      const oi = i * d;
      let best = -1;
      let sp = 0;
      stack[sp] = 0;
      stackLb[sp++] = ci;
      while (sp > 0) {
        const node = stack[--sp];
        if (stackLb[sp] >= bound || nodeComp[node] === c) continue;
        const l = left[node];
        if (l < 0) {
          for (let j = start[node]; j < end[node]; j++) {
            const cj = core2[j];
            if (cj >= bound || comp[j] === c) continue;
            const oj = j * d;
            const acc = sqDist(xs, oi, oj, d, bound);
            if (acc < bound) {
              let m = acc > ci ? acc : ci;
              if (cj > m) m = cj;
              bound = m;
              best = j;
              if (bound <= ci) break; // nothing can beat the row's own core distance
            }
          }
          if (bound <= ci) break;
          continue;
        }
        const r = right[node];
        let bl = boxDist2(tr, l, i);
        let br = boxDist2(tr, r, i);
        if (ci > bl) bl = ci;
        if (nodeCore[l] > bl) bl = nodeCore[l];
        if (ci > br) br = ci;
        if (nodeCore[r] > br) br = nodeCore[r];
        sp = pushChildren(stack, stackLb, sp, l, bl, r, br);
      }
      if (best >= 0) {
        bestTo[i] = best;
        bestW[i] = bound;
        compBound[c] = bound;
      }
    }
  }
}
