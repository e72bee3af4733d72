import type { BinMapper, BinnedMatrix } from './binning.js';
import type { Rng } from './rng.js';
import type { Tree } from './tree.js';

/** Settings of one tree's growth. */
export interface GrowParams {
  /** Leaves at most (leaf-wise growth: the leaf with the largest gain is split first). */
  maxLeafNodes: number;
  /** Depth at most; 0 = unlimited. */
  maxDepth: number;
  /** Training rows (counting repeats) each leaf must keep. */
  minSamplesLeaf: number;
  /** L2 penalty λ on leaf values: a leaf's value is −G/(n+λ) (times shrinkage). */
  l2: number;
  /** Multiplies every leaf value (the learning rate of boosting; 1 for a forest). */
  shrinkage: number;
  /** Fraction of the columns tried at each split (random forest); 1 = all. */
  featureFraction: number;
}

/**
 * Grows regression trees on one binned matrix. A node's histogram holds, for every column, one (sum of gradients,
 * row count) pair per value bin plus one for missing values, packed: column c's slots start at `offset[c]`.
 * With all columns tried at each split (boosting), a child's histogram is built from the smaller child's rows and
 * the other is the parent's minus it. With a fraction of the columns (random forest), each node builds histograms
 * of its sampled columns only.
 */
export class TreeGrower {
  private readonly words: Uint32Array;
  private readonly quads: number;
  /** Slot offsets (in doubles) per column, padded columns included; slot = 2 × (offset + bin). */
  private readonly offset: Int32Array;
  private readonly histSize: number;
  private pool: Float64Array[] = [];
  private scratch: Int32Array;
  private readonly colOrder: Int32Array;
  private readonly sampleScratch: Int32Array;

  constructor(
    readonly data: BinnedMatrix,
    readonly mapper: BinMapper,
  ) {
    this.words = new Uint32Array(data.bins.buffer, data.bins.byteOffset, data.bins.byteLength >>> 2);
    this.quads = data.stride >>> 2;
    this.offset = new Int32Array(data.stride);
    let o = 0;
    for (let c = 0; c < data.stride; c++) {
      this.offset[c] = o;
      // Value bins + the missing slot; a padding column only ever sees bin 0.
      o += 2 * (c < data.nCols ? mapper.nBins[c] + 1 : 1);
    }
    this.histSize = o;
    this.scratch = new Int32Array(0);
    this.colOrder = Int32Array.from({ length: data.nCols }, (_, i) => i);
    this.sampleScratch = new Int32Array(data.nCols);
  }

  private takeHist(): Float64Array {
    return this.pool.pop() ?? new Float64Array(this.histSize);
  }

  private giveHist(h: Float64Array): void {
    this.pool.push(h);
  }

  /**
   * Sums gradients and counts rows per (column, bin) over rows idx[start … end). The hot spot of training: two rows
   * at a time, four bins per 32-bit word (about twice as fast as one byte at a time in V8).
   */
  private buildHist(h: Float64Array, idx: Int32Array, start: number, end: number, grad: Float64Array): void {
    h.fill(0);
    const w32 = this.words;
    const q = this.quads;
    const off = this.offset;
    let i = start;
    for (; i + 1 < end; i += 2) {
      const r = idx[i];
      const s = idx[i + 1];
      const g = grad[r];
      const g2 = grad[s];
      const o = r * q;
      const o2 = s * q;
      for (let j = 0; j < q; j++) {
        const w = w32[o + j];
        const v = w32[o2 + j];
        const c = j << 2;
        const b0 = off[c];
        const b1 = off[c + 1];
        const b2 = off[c + 2];
        const b3 = off[c + 3];
        let k = b0 + ((w & 255) << 1);
        h[k] += g;
        h[k + 1] += 1;
        k = b0 + ((v & 255) << 1);
        h[k] += g2;
        h[k + 1] += 1;
        k = b1 + (((w >>> 8) & 255) << 1);
        h[k] += g;
        h[k + 1] += 1;
        k = b1 + (((v >>> 8) & 255) << 1);
        h[k] += g2;
        h[k + 1] += 1;
        k = b2 + (((w >>> 16) & 255) << 1);
        h[k] += g;
        h[k + 1] += 1;
        k = b2 + (((v >>> 16) & 255) << 1);
        h[k] += g2;
        h[k + 1] += 1;
        k = b3 + ((w >>> 24) << 1);
        h[k] += g;
        h[k + 1] += 1;
        k = b3 + ((v >>> 24) << 1);
        h[k] += g2;
        h[k + 1] += 1;
      }
    }
    if (i < end) {
      const r = idx[i];
      const g = grad[r];
      const o = r * q;
      for (let j = 0; j < q; j++) {
        const w = w32[o + j];
        const c = j << 2;
        h[off[c] + ((w & 255) << 1)] += g;
        h[off[c] + ((w & 255) << 1) + 1] += 1;
        h[off[c + 1] + (((w >>> 8) & 255) << 1)] += g;
        h[off[c + 1] + (((w >>> 8) & 255) << 1) + 1] += 1;
        h[off[c + 2] + (((w >>> 16) & 255) << 1)] += g;
        h[off[c + 2] + (((w >>> 16) & 255) << 1) + 1] += 1;
        h[off[c + 3] + ((w >>> 24) << 1)] += g;
        h[off[c + 3] + ((w >>> 24) << 1) + 1] += 1;
      }
    }
  }

  /** Histograms of the listed columns only, from the rows idx[start … end) (random-forest nodes). */
  private buildHistColumns(h: Float64Array, cols: Int32Array, idx: Int32Array, start: number, end: number, grad: Float64Array): void {
    const bins = this.data.bins;
    const stride = this.data.stride;
    const off = this.offset;
    const nc = cols.length;
    for (let ci = 0; ci < nc; ci++) {
      const c = cols[ci];
      h.fill(0, off[c], off[c] + 2 * (this.mapper.nBins[c] + 1));
    }
    // Row by row: a row's bins share a few cache lines, where column by column each row would cost a miss.
    for (let i = start; i < end; i++) {
      const r = idx[i];
      const g = grad[r];
      const o = r * stride;
      for (let ci = 0; ci < nc; ci++) {
        const c = cols[ci];
        const k = off[c] + (bins[o + c] << 1);
        h[k] += g;
        h[k + 1] += 1;
      }
    }
  }

  /** The columns a node may split on: all, or a seeded random subset (sorted). */
  private sampleColumns(p: GrowParams, rng: Rng | null): Int32Array {
    const nCols = this.data.nCols;
    if (!(p.featureFraction < 1 && rng)) return this.colOrder;
    const nTry = Math.max(1, Math.round(p.featureFraction * nCols));
    const cols = this.sampleScratch;
    cols.set(this.colOrder);
    // A partial Fisher–Yates shuffle picks nTry distinct columns.
    for (let i = 0; i < nTry; i++) {
      const j = i + rng.int(nCols - i);
      const t = cols[i];
      cols[i] = cols[j];
      cols[j] = t;
    }
    return cols.slice(0, nTry).sort();
  }

  /**
   * Grows one tree on rows idx[0 … n) (repeats allowed: a bootstrap sample) fitting the negative gradients `grad`
   * (hessians are 1: squared error). `idx` is reordered so each leaf's rows are contiguous; `onLeaf` receives each
   * leaf's value and row range, so boosting can update its running predictions without walking the tree.
   */
  grow(
    idx: Int32Array,
    n: number,
    grad: Float64Array,
    p: GrowParams,
    rng: Rng | null,
    onLeaf?: (value: number, start: number, end: number) => void,
  ): Tree {
    if (this.scratch.length < n) this.scratch = new Int32Array(n);
    const direct = p.featureFraction < 1 && rng !== null;
    const nodes = new NodeList();
    let sumG = 0;
    for (let i = 0; i < n; i++) sumG += grad[idx[i]];
    const root = nodes.add(0, n, sumG, n, 0);
    // When the leaf cap cannot bind (depth-limited trees) the order of splits does not change the tree: split
    // depth-first then, so only a few histograms are held at once.
    const depthFirst = p.maxDepth > 0 && p.maxDepth < 31 && p.maxLeafNodes >= 2 ** p.maxDepth;
    const open = new CandidateHeap(depthFirst);
    const splittable = (node: number): boolean =>
      (p.maxDepth <= 0 || nodes.depth[node] < p.maxDepth) && nodes.count[node] >= 2 * p.minSamplesLeaf;
    // In direct mode a node's histogram covers only its sampled columns and is built when the node is considered.
    const consider = (node: number, hist: Float64Array | null): void => {
      if (!splittable(node)) {
        if (hist) this.giveHist(hist);
        return;
      }
      let cols = this.colOrder;
      let h = hist;
      if (direct) {
        cols = this.sampleColumns(p, rng);
        h = this.takeHist();
        this.buildHistColumns(h, cols, idx, nodes.start[node], nodes.end[node], grad);
      }
      const best = this.bestSplit(h as Float64Array, cols, nodes.sumG[node], nodes.count[node], p);
      if (best === null || direct) this.giveHist(h as Float64Array);
      if (best !== null) open.push({ node, hist: direct ? null : h, ...best });
    };
    if (direct) consider(root, null);
    else {
      const rootHist = this.takeHist();
      this.buildHist(rootHist, idx, 0, n, grad);
      consider(root, rootHist);
    }
    let leaves = 1;
    while (leaves < p.maxLeafNodes && open.size > 0) {
      // The open leaf with the largest gain (ties: the earliest node, so growth is deterministic).
      const cand = open.pop();
      const { node } = cand;
      const start = nodes.start[node];
      const end = nodes.end[node];
      const mid = this.partition(idx, start, end, cand.col, cand.bin, cand.missingLeft);
      const depth = nodes.depth[node] + 1;
      const l = nodes.add(start, mid, cand.gLeft, cand.nLeft, depth);
      const r = nodes.add(mid, end, nodes.sumG[node] - cand.gLeft, nodes.count[node] - cand.nLeft, depth);
      nodes.split(node, cand.col, cand.bin, cand.missingLeft, l, r);
      leaves++;
      if (direct) {
        consider(l, null);
        consider(r, null);
        continue;
      }
      const big = cand.hist as Float64Array;
      if (!splittable(l) && !splittable(r)) {
        this.giveHist(big);
        continue;
      }
      // Histogram of the smaller child by scanning its rows, the larger by subtraction from the parent's.
      const smallIsLeft = mid - start <= end - mid;
      const small = this.takeHist();
      if (smallIsLeft) this.buildHist(small, idx, start, mid, grad);
      else this.buildHist(small, idx, mid, end, grad);
      for (let k = 0, m = this.histSize; k < m; k++) big[k] -= small[k];
      consider(smallIsLeft ? l : r, small);
      consider(smallIsLeft ? r : l, big);
    }
    while (open.size > 0) {
      const h = open.pop().hist;
      if (h) this.giveHist(h);
    }
    return this.finish(nodes, p, onLeaf);
  }

  /** The best split of a node over columns `cols` from its histogram, or null when no split gains. */
  private bestSplit(h: Float64Array, cols: Int32Array, sumG: number, count: number, p: GrowParams): Omit<Candidate, 'node' | 'hist'> | null {
    const lambda = p.l2;
    const minLeaf = p.minSamplesLeaf;
    const parentScore = (sumG * sumG) / (count + lambda);
    let bestGain = 1e-12 * Math.max(1, Math.abs(parentScore));
    let best: Omit<Candidate, 'node' | 'hist'> | null = null;
    for (let ci = 0; ci < cols.length; ci++) {
      const col = cols[ci];
      const base = this.offset[col];
      const nb = this.mapper.nBins[col];
      const gMiss = h[base + (nb << 1)];
      const nMiss = h[base + (nb << 1) + 1];
      let gl = 0;
      let nl = 0;
      // Split after bin b: bins 0…b go left. With missing rows, b = nb−1 separates missing from present values.
      const lastB = nMiss > 0 ? nb - 1 : nb - 2;
      for (let b = 0; b <= lastB; b++) {
        const cb = h[base + (b << 1) + 1];
        gl += h[base + (b << 1)];
        nl += cb;
        // An empty bin changes nothing: the split after the previous bin was already scored.
        if (cb === 0 && b > 0 && b < nb - 1) continue;
        // Missing rows to the right.
        let nr = count - nl;
        if (nl >= minLeaf && nr >= minLeaf) {
          const gr = sumG - gl;
          const gain = (gl * gl) / (nl + lambda) + (gr * gr) / (nr + lambda) - parentScore;
          if (gain > bestGain) {
            bestGain = gain;
            // Without missing rows at training time, missing values follow the larger child.
            const missingLeft = nMiss === 0 && nl > nr;
            best = { gain, col, bin: b, missingLeft, gLeft: gl, nLeft: nl };
          }
        }
        if (nMiss > 0 && b < nb - 1) {
          // Missing rows to the left.
          const gl2 = gl + gMiss;
          const nl2 = nl + nMiss;
          nr = count - nl2;
          if (nl2 >= minLeaf && nr >= minLeaf) {
            const gr = sumG - gl2;
            const gain = (gl2 * gl2) / (nl2 + lambda) + (gr * gr) / (nr + lambda) - parentScore;
            if (gain > bestGain) {
              bestGain = gain;
              best = { gain, col, bin: b, missingLeft: true, gLeft: gl2, nLeft: nl2 };
            }
          }
        }
      }
    }
    return best;
  }

  /** Stable partition of idx[start … end): rows going left first. Returns the first index of the right part. */
  private partition(idx: Int32Array, start: number, end: number, col: number, bin: number, missingLeft: boolean): number {
    const n = this.data.nRows;
    const colBins = this.data.byColumn.subarray(col * n, (col + 1) * n);
    const missing = this.mapper.nBins[col];
    const tmp = this.scratch;
    const missLeft = missingLeft ? 1 : 0;
    let w = start;
    let t = 0;
    // Branch-free: each row is written to both sides and only the side it belongs to advances.
    for (let i = start; i < end; i++) {
      const r = idx[i];
      const b = colBins[r];
      const goLeft = b === missing ? missLeft : b <= bin ? 1 : 0;
      idx[w] = r;
      tmp[t] = r;
      w += goLeft;
      t += 1 - goLeft;
    }
    idx.set(tmp.subarray(0, t), w);
    return w;
  }

  private finish(nodes: NodeList, p: GrowParams, onLeaf?: (value: number, start: number, end: number) => void): Tree {
    const m = nodes.size;
    const tree: Tree = {
      feature: new Int32Array(m),
      threshold: new Float64Array(m),
      left: new Int32Array(m),
      right: new Int32Array(m),
      value: new Float64Array(m),
      cover: new Float64Array(m),
      defaultLeft: new Uint8Array(m),
    };
    for (let i = 0; i < m; i++) {
      tree.cover[i] = nodes.count[i];
      const col = nodes.col[i];
      // Internal nodes carry the value they would predict as a leaf (for inspection only).
      const v = (-nodes.sumG[i] / (nodes.count[i] + p.l2)) * p.shrinkage;
      tree.value[i] = v;
      if (col < 0) {
        tree.feature[i] = -1;
        tree.left[i] = -1;
        tree.right[i] = -1;
        onLeaf?.(v, nodes.start[i], nodes.end[i]);
      } else {
        tree.feature[i] = col;
        const edges = this.mapper.thresholds[col];
        const b = nodes.bin[i];
        // The last value bin has no upper edge: the split then separates missing values from all present ones.
        tree.threshold[i] = b < edges.length ? edges[b] : Number.MAX_VALUE;
        tree.left[i] = nodes.left[i];
        tree.right[i] = nodes.right[i];
        tree.defaultLeft[i] = nodes.missingLeft[i];
      }
    }
    return tree;
  }
}

interface Candidate {
  node: number;
  hist: Float64Array | null;
  gain: number;
  col: number;
  bin: number;
  missingLeft: boolean;
  gLeft: number;
  nLeft: number;
}

/** Growable per-node arrays used while a tree is grown. */
class NodeList {
  size = 0;
  start: number[] = [];
  end: number[] = [];
  sumG: number[] = [];
  count: number[] = [];
  depth: number[] = [];
  col: number[] = [];
  bin: number[] = [];
  missingLeft: number[] = [];
  left: number[] = [];
  right: number[] = [];

  add(start: number, end: number, sumG: number, count: number, depth: number): number {
    this.start.push(start);
    this.end.push(end);
    this.sumG.push(sumG);
    this.count.push(count);
    this.depth.push(depth);
    this.col.push(-1);
    this.bin.push(0);
    this.missingLeft.push(0);
    this.left.push(-1);
    this.right.push(-1);
    return this.size++;
  }

  split(node: number, col: number, bin: number, missingLeft: boolean, l: number, r: number): void {
    this.col[node] = col;
    this.bin[node] = bin;
    this.missingLeft[node] = missingLeft ? 1 : 0;
    this.left[node] = l;
    this.right[node] = r;
  }
}

/** A binary max-heap of split candidates by gain, ties broken by the lower node id; or a plain stack. */
class CandidateHeap {
  private items: Candidate[] = [];

  constructor(private readonly stack: boolean) {}

  get size(): number {
    return this.items.length;
  }

  private static above(a: Candidate, b: Candidate): boolean {
    return a.gain > b.gain || (a.gain === b.gain && a.node < b.node);
  }

  push(c: Candidate): void {
    const a = this.items;
    a.push(c);
    if (this.stack) return;
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!CandidateHeap.above(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }

  pop(): Candidate {
    const a = this.items;
    if (this.stack) return a.pop() as Candidate;
    const top = a[0];
    const last = a.pop() as Candidate;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && CandidateHeap.above(a[l], a[m])) m = l;
        if (r < a.length && CandidateHeap.above(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
