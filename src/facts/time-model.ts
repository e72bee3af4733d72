import { IO_OPS, type FileTime, type IoOp, type NotRecorded, type RankTimes, type TimeShare } from '../contract/index.js';

/**
 * The one time model: where a job's I/O time went, by layer × operation class × file × rank, in two semantics —
 * the slowest rank (the wall time the job waited in I/O) and the sum over ranks. Every output that shows an I/O time
 * (report, trace, store, web, the learned target) reads it from here (the `io.time` fact).
 *
 * Inputs are timed records: one file × one rank (or a file shared by all ranks, rank −1, as Darshan reduces them) at
 * one layer, with the cumulative seconds of each operation class. Layers nest: an HDF5 (or PnetCDF) call contains
 * the MPI-IO calls it makes, an MPI-IO call the POSIX calls it makes. So a file's time is its outermost layer's (the
 * layer the application called); the layers beneath are kept as what they explain of it (`beneath`), never added
 * again. Where a layer beneath took longer than the one above (calls the application made to it directly), the
 * excess counts at that layer. STDIO, DFS and DAOS stand apart: their time adds up.
 *
 * Slowest rank: files one rank opened alone add up per rank; the slowest such rank's time, plus each shared file's
 * slowest-rank time, is the job's I/O time (darshan-util's agg_time_by_slowest, at the layer called). A shared file's
 * slowest-rank time is the outermost layer's when it records one (MPI-IO, POSIX, STDIO, H5D do); otherwise the
 * nearest layer beneath's plus the extra time above it spread over the ranks (at least the mean over ranks). Its
 * parts in the breakdown are its cumulative parts scaled to it. Per-rank times of shared files are estimates: the
 * slowest and fastest rank as recorded, the others the mean of the rest.
 *
 * Traces time every call, so each rank's time is exact: calls a trace marks as made inside another traced call count
 * only beneath it (unless no I/O call of the rank holds them), and calls a rank ran at the same time (threads) count
 * once — its time is the wall time it had a call in flight, its parts scaled to it; the sum over ranks keeps them all.
 */

/** Layers the model knows, in nesting order within the main stack (outermost first), then the standalone ones. */
export const TIME_LAYERS = ['HDF5', 'PnetCDF', 'MPI-IO', 'POSIX', 'STDIO', 'DFS', 'DAOS', 'other'] as const;
export type TimeLayer = (typeof TIME_LAYERS)[number];
/** Layers of the main stack (each nests in the ones before it). */
const STACK_DEPTH = 4;
const NOPS = IO_OPS.length;
const OP = Object.fromEntries(IO_OPS.map((o, i) => [o, i])) as Record<IoOp, number>;
export const OP_INDEX: Readonly<Record<IoOp, number>> = OP;
const LAYER_INDEX = new Map<string, number>(TIME_LAYERS.map((l, i) => [l, i]));
/** Operation classes that move data, and those that do not (a close that flushes data is reclassified by it). */
const DATA_OPS = [OP.read, OP.write] as const;
const NON_DATA_OPS = [OP.metadata, OP.sync, OP.other] as const;

export function timeLayerIndex(layer: TimeLayer): number {
  return LAYER_INDEX.get(layer)!;
}

/** Per-file results, columnar, in the order files were first added. */
export interface FileTimes {
  /** The caller's file keys (Darshan record ids; trace file ids). */
  readonly keys: readonly bigint[];
  /** Outermost layer used on the file. */
  readonly layer: readonly TimeLayer[];
  /** Cumulative seconds per operation class (all layers of the file, nothing counted twice). */
  readonly ops: readonly Float64Array[];
  readonly total: Float64Array;
  /** The slowest rank's seconds on the file (shared files: as recorded or estimated; else the largest rank's). */
  readonly slowest: Float64Array;
  /** 1 when the file is shared (a rank −1 record). */
  readonly shared: Uint8Array;
  /** Ranks that accessed the file (the job's ranks for a shared file). */
  readonly ranks: Float64Array;
}

/** The model of one job. */
export interface TimeModel {
  readonly runTime: number;
  readonly processes: number;
  /** Slowest-rank semantics, seconds. */
  readonly ioTime: number;
  /** Summed over ranks, seconds. */
  readonly cumulativeIoTime: number;
  readonly breakdown: readonly TimeShare[];
  readonly notRecorded: readonly NotRecorded[];
  readonly files: FileTimes;
  /** Estimated I/O seconds per rank (index = rank); exact when `ranksExact`. */
  readonly rankSeconds: Float64Array;
  readonly ranksExact: boolean;
  /** The rank whose files of its own make the slowest-rank sum (−1 when no file is per-rank). */
  readonly slowestUniqueRank: number;
  /**
   * Seconds of calls that ran while another call of the same rank did (a trace's threads), over all ranks: each rank's
   * time (`rankSeconds`, `ioTime`) counts them once, `cumulativeIoTime` every call in full.
   */
  readonly overlapSeconds: number;
  readonly source: 'counters' | 'counters+dxt' | 'trace';
  /**
   * Time on files that are not storage (pipes, sockets, devices, the standard streams: src/facts/not-storage.ts),
   * set apart: it is in none of the times above (the job was waiting on another process or a device, not on the file
   * system). `seconds` is the slowest rank's (at most the run time), `cumulativeSeconds` the sum over ranks.
   */
  readonly apart: ApartTime;
  /** The display name of a file key, when the model's inputs name files themselves (traces); else the input's names. */
  readonly fileName?: (key: bigint) => string;
  /** How a trace labels each rank (its process label: a rank number, or `host:pid`); absent for logs (the rank number). */
  readonly rankLabels?: readonly string[];
}

/** Time set apart on files that are not storage (`TimeModel.apart`). */
export interface ApartTime {
  readonly seconds: number;
  readonly cumulativeSeconds: number;
  /** Every such file, the costliest first: its key, why it is not storage, its seconds in both semantics. */
  readonly files: readonly { readonly key: bigint; readonly reason: string; readonly seconds: number; readonly cumulativeSeconds: number }[];
}

interface Rec {
  file: number;
  rank: number;
  layer: number;
  t: Float64Array;
  /** Shared records: the slowest rank's seconds (NaN unknown) and who; the fastest likewise. */
  slowest: number;
  slowestRank: number;
  fastest: number;
  fastestRank: number;
}

/** What one file (one rank of it, or the whole of a shared file) adds up to after nesting its layers. */
interface Composed {
  /** Cumulative seconds per (layer, op): index layer * NOPS + op. */
  readonly parts: Float64Array;
  /** beneath[(layer * NOPS + op) * L + lower]: seconds the lower layer spent inside those calls. */
  readonly beneath: Float64Array;
  readonly total: number;
  readonly top: number;
}

const L: number = TIME_LAYERS.length;
/** Ranks kept in dense per-rank arrays; a rank beyond (a damaged log's, or a job of millions) is kept sparsely. */
const DENSE_RANKS = 1 << 22;

/**
 * Nests the layers of one file (one rank's records, or a shared file's folded records): per layer its operation
 * times (`byLayer[layer]`, NOPS each, null when absent).
 */
function compose(byLayer: (Float64Array | null)[]): Composed {
  const parts = new Float64Array(L * NOPS);
  const beneath = new Float64Array(L * NOPS * L);
  let total = 0;
  let top = -1;
  // The main stack: the outermost present layer carries the time; deeper layers explain it, or exceed it.
  let outer = -1;
  let outerTotal = 0;
  for (let layer = 0; layer < STACK_DEPTH; layer++) {
    const t = byLayer[layer];
    if (!t) continue;
    const sum = sumOf(t);
    if (outer < 0) {
      outer = layer;
      top = layer;
      outerTotal = sum;
      for (let o = 0; o < NOPS; o++) parts[layer * NOPS + o] += t[o];
      continue;
    }
    // What of this layer's time sits inside the outer layer's calls: the same operation first, then the rest where
    // the outer layer's calls have room (a data-sieving read inside an MPI-IO write).
    const inside = Math.min(sum, outerTotal);
    const room = new Float64Array(NOPS);
    const put = new Float64Array(NOPS);
    let left = inside;
    for (let o = 0; o < NOPS; o++) {
      const m = Math.min(t[o], parts[outer * NOPS + o], left);
      put[o] = m;
      left -= m;
    }
    let roomSum = 0;
    for (let o = 0; o < NOPS; o++) {
      room[o] = Math.max(0, parts[outer * NOPS + o] - put[o]);
      roomSum += room[o];
    }
    if (left > 0 && roomSum > 0) {
      const f = Math.min(1, left / roomSum);
      // What of the inner layer is still to place, per operation: its data share moves data wherever it sits.
      let rest = 0;
      const spill = new Float64Array(NOPS);
      for (let o = 0; o < NOPS; o++) {
        spill[o] = Math.max(0, t[o] - put[o]);
        rest += spill[o];
      }
      for (let o = 0; o < NOPS; o++) put[o] += room[o] * f;
      // Attribution by what the call did: the inner layer's data time (reads, writes) that lands in the outer
      // layer's non-data calls (an H5Fclose or H5Dclose flushing datasets through collective MPI-IO writes, a
      // PnetCDF wait or close, an MPI_File_close flushing ROMIO's buffers) moved data, so that much of the outer
      // call's time is the outer layer's data I/O, of the class the inner layer moved, not its metadata or sync.
      if (rest > 0) {
        for (const p of NON_DATA_OPS) {
          const moved = room[p] * f;
          if (!(moved > 0)) continue;
          for (const d of DATA_OPS) {
            const x = (moved * spill[d]) / rest;
            if (!(x > 0)) continue;
            parts[outer * NOPS + p] -= x;
            parts[outer * NOPS + d] += x;
            put[p] -= x;
            put[d] += x;
          }
        }
      }
    }
    for (let o = 0; o < NOPS; o++) beneath[(outer * NOPS + o) * L + layer] += put[o];
    // A sync beneath (fsync under MPI_File_sync or a write) is a sync of the outer layer too: Darshan's MPI-IO counts
    // MPI_File_sync in its write time.
    const s = OP.sync, w = OP.write;
    const syncBelow = t[s];
    if (syncBelow > parts[outer * NOPS + s]) {
      const move = Math.min(syncBelow - parts[outer * NOPS + s], parts[outer * NOPS + w]);
      if (move > 0) {
        parts[outer * NOPS + w] -= move;
        parts[outer * NOPS + s] += move;
        for (let l2 = 0; l2 < L; l2++) {
          const b = beneath[(outer * NOPS + w) * L + l2];
          if (b > parts[outer * NOPS + w]) {
            beneath[(outer * NOPS + s) * L + l2] += b - parts[outer * NOPS + w];
            beneath[(outer * NOPS + w) * L + l2] = parts[outer * NOPS + w];
          }
        }
      }
    }
    if (sum > outerTotal) {
      // Calls made to this layer directly (outside the outer layer's): the excess counts here.
      const extra = sum - outerTotal;
      for (let o = 0; o < NOPS; o++) parts[layer * NOPS + o] += (t[o] / sum) * extra;
      outerTotal = sum;
    }
  }
  total += outerTotal;
  for (let layer = STACK_DEPTH; layer < L; layer++) {
    const t = byLayer[layer];
    if (!t) continue;
    for (let o = 0; o < NOPS; o++) parts[layer * NOPS + o] += t[o];
    total += sumOf(t);
    if (top < 0) top = layer;
  }
  return { parts, beneath, total, top };
}

function sumOf(t: Float64Array): number {
  let s = 0;
  for (let o = 0; o < NOPS; o++) s += t[o];
  return s;
}

/** Options of `build`. */
export interface BuildOptions {
  readonly runTime: number;
  /** The job's ranks (shared files are accessed by all of them). */
  readonly processes: number;
  readonly notRecorded?: readonly NotRecorded[];
  readonly source: TimeModel['source'];
  readonly fileName?: (key: bigint) => string;
  readonly rankLabels?: readonly string[];
  /**
   * A trace's wall time per rank with an I/O call in flight. A rank's time is at most this: calls it ran at the same
   * time (threads) count once, its parts scaled down in proportion.
   */
  readonly rankWall?: ReadonlyMap<number, number>;
  /**
   * The most time any rank can have spent in I/O (a log's run time): a rank whose calls sum to more ran some of them at
   * once; its time is capped here, its parts scaled down in proportion, as with `rankWall`.
   */
  readonly rankCap?: number;
  /** Why a file is not storage (null: it is): such files' time is set apart (`TimeModel.apart`), not I/O time. */
  readonly apart?: (key: bigint) => string | null;
}

/** Collects timed records, then builds the model. */
export class TimeModelBuilder {
  private readonly recs: Rec[] = [];
  /** Per rank, seconds of calls made inside other traced calls, per (layer, op): explained, not added. */
  private readonly nested = new Map<number, Float64Array>();
  private readonly fileIndex = new Map<bigint, number>();
  private readonly keys: bigint[] = [];

  /** The dense index of a file key. */
  file(key: bigint): number {
    let i = this.fileIndex.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.keys.push(key);
      this.fileIndex.set(key, i);
    }
    return i;
  }

  /**
   * Adds one record: a file (its key), a rank (−1: shared by all ranks), a layer and its cumulative seconds per
   * operation class (negative and non-finite values count as 0). A shared record may say its slowest and fastest rank.
   */
  add(
    key: bigint,
    rank: number,
    layer: TimeLayer,
    seconds: Partial<Record<IoOp, number>>,
    ranks?: { slowest?: number; slowestRank?: number; fastest?: number; fastestRank?: number },
  ): void {
    const t = new Float64Array(NOPS);
    let any = false;
    for (const op of IO_OPS) {
      const v = seconds[op];
      if (v !== undefined && v > 0 && Number.isFinite(v)) {
        t[OP[op]] = v;
        any = true;
      }
    }
    if (!any) return;
    const ok = (v: number | undefined) => v !== undefined && Number.isFinite(v) && v >= 0;
    this.recs.push({
      file: this.file(key),
      rank: rank < 0 ? -1 : rank,
      layer: LAYER_INDEX.get(layer)!,
      t,
      slowest: ok(ranks?.slowest) ? ranks!.slowest! : NaN,
      slowestRank: ranks?.slowestRank !== undefined && ranks.slowestRank >= 0 ? ranks.slowestRank : -1,
      fastest: ok(ranks?.fastest) ? ranks!.fastest! : NaN,
      fastestRank: ranks?.fastestRank !== undefined && ranks.fastestRank >= 0 ? ranks.fastestRank : -1,
    });
  }

  /**
   * Adds the seconds of calls a rank made inside other traced calls (a trace's call depth above 0) at one layer: they
   * are the calls beneath the rank's outer calls (`beneath` of the layers above), never added to the I/O time.
   */
  addNested(rank: number, layer: TimeLayer, seconds: Partial<Record<IoOp, number>>): void {
    const l = LAYER_INDEX.get(layer)!;
    let t = this.nested.get(rank);
    if (!t) this.nested.set(rank, (t = new Float64Array(L * NOPS)));
    for (const op of IO_OPS) {
      const v = seconds[op];
      if (v !== undefined && v > 0 && Number.isFinite(v)) t[l * NOPS + OP[op]] += v;
    }
  }

  build(opts: BuildOptions): TimeModel {
    const nfiles = this.keys.length;
    const byFile: Rec[][] = Array.from({ length: nfiles }, () => []);
    let maxRank = opts.processes - 1;
    for (const r of this.recs) {
      byFile[r.file].push(r);
      if (r.rank > maxRank) maxRank = r.rank;
    }
    // Per-rank arrays cover the job's ranks, within DENSE_RANKS; a rank past them (a damaged log's) only counts in
    // the unique-file slowest rank, kept sparsely.
    const nranks = Math.min(DENSE_RANKS, Math.max(0, maxRank + 1));
    const n = Math.max(1, opts.processes);
    const files = {
      layer: [] as TimeLayer[],
      ops: IO_OPS.map(() => new Float64Array(nfiles)),
      total: new Float64Array(nfiles),
      slowest: new Float64Array(nfiles),
      shared: new Uint8Array(nfiles),
      ranks: new Float64Array(nfiles),
    };
    const uniqueByRank = new Float64Array(nranks);
    const uniqueBeyond = new Map<number, number>();
    const rankSeconds = new Float64Array(nranks);
    const cumParts = new Float64Array(L * NOPS);
    const cumBeneath = new Float64Array(L * NOPS * L);
    const slowParts = new Float64Array(L * NOPS);
    /** Of slowParts, what came from shared files whose slowest rank is only the mean over ranks (no per-rank time). */
    const slowMean = new Float64Array(L * NOPS);
    let sharedSlowest = 0;
    /** Seconds every rank gets from shared files (each file's mean of the ranks not recorded by name). */
    let everyone = 0;
    let ranksExact = true;
    const addInto = (dst: Float64Array, src: Float64Array, f = 1) => {
      for (let i = 0; i < src.length; i++) dst[i] += src[i] * f;
    };
    // Per-rank composed files, kept for the second pass (the slowest rank's parts).
    const uniqueParts: { rank: number; parts: Float64Array }[] = [];
    // The parts of each rank that made nested calls, to place those calls beneath.
    const ownParts = new Map<number, Float64Array>();
    for (const rank of this.nested.keys()) ownParts.set(rank, new Float64Array(L * NOPS));
    // Files that are not storage: their time is kept apart, per rank, and the file stays in the file columns with
    // no time.
    const apartFiles: { key: bigint; reason: string; seconds: number; cumulativeSeconds: number }[] = [];
    const apartByRank = new Map<number, number>();
    let apartCum = 0;
    /** A shared non-storage file's slowest-rank seconds count for every rank. */
    let apartEveryone = 0;
    for (let f = 0; f < nfiles; f++) {
      const recs = byFile[f];
      const shared = recs.some((r) => r.rank < 0);
      const why = opts.apart ? opts.apart(this.keys[f]) : null;
      if (why !== null) {
        let cum = 0;
        const perRank = new Map<number, number>();
        for (const r of recs) {
          const s = sumOf(r.t);
          cum += s;
          perRank.set(r.rank, (perRank.get(r.rank) ?? 0) + s);
        }
        let slow = 0;
        for (const [rank, s] of perRank) {
          const mine = rank < 0 ? (recs.find((r) => r.rank < 0 && !Number.isNaN(r.slowest))?.slowest ?? s / n) : s;
          slow = Math.max(slow, mine);
          if (rank < 0) apartEveryone += mine;
          else apartByRank.set(rank, (apartByRank.get(rank) ?? 0) + s);
        }
        apartCum += cum;
        apartFiles.push({ key: this.keys[f], reason: why, seconds: Math.min(slow, opts.rankCap ?? Infinity), cumulativeSeconds: cum });
        files.layer.push('other');
        files.shared[f] = shared ? 1 : 0;
        files.ranks[f] = perRank.has(-1) ? n : perRank.size;
        continue;
      }
      files.shared[f] = shared ? 1 : 0;
      let fileTop = L;
      const fileOps = new Float64Array(NOPS);
      if (!shared) {
        const byRank = new Map<number, (Float64Array | null)[]>();
        for (const r of recs) {
          let layers = byRank.get(r.rank);
          if (!layers) byRank.set(r.rank, (layers = new Array<Float64Array | null>(L).fill(null)));
          const t = (layers[r.layer] ??= new Float64Array(NOPS));
          addInto(t, r.t);
        }
        let maxRankTime = 0;
        for (const [rank, layers] of byRank) {
          const c = compose(layers);
          const own = ownParts.get(rank);
          if (own) addInto(own, c.parts);
          addInto(cumParts, c.parts);
          addInto(cumBeneath, c.beneath);
          if (rank < nranks) {
            uniqueByRank[rank] += c.total;
            rankSeconds[rank] += c.total;
          } else uniqueBeyond.set(rank, (uniqueBeyond.get(rank) ?? 0) + c.total);
          if (c.total > maxRankTime) maxRankTime = c.total;
          if (c.top >= 0 && c.top < fileTop) fileTop = c.top;
          for (let l = 0; l < L; l++) for (let o = 0; o < NOPS; o++) fileOps[o] += c.parts[l * NOPS + o];
          uniqueParts.push({ rank, parts: c.parts });
        }
        files.slowest[f] = maxRankTime;
        files.ranks[f] = byRank.size;
      } else {
        // Fold every record of the file per layer; per-rank records of a shared file count in the sum, their
        // largest total as that layer's slowest rank.
        const layers = new Array<Float64Array | null>(L).fill(null);
        const slow = new Float64Array(L).fill(NaN);
        const slowRank = new Int32Array(L).fill(-1);
        const fast = new Float64Array(L).fill(NaN);
        const fastRank = new Int32Array(L).fill(-1);
        for (const r of recs) {
          const t = (layers[r.layer] ??= new Float64Array(NOPS));
          addInto(t, r.t);
          if (r.rank < 0) {
            if (!Number.isNaN(r.slowest)) {
              slow[r.layer] = Number.isNaN(slow[r.layer]) ? r.slowest : slow[r.layer] + r.slowest;
              slowRank[r.layer] = r.slowestRank;
            }
            if (!Number.isNaN(r.fastest)) {
              fast[r.layer] = Number.isNaN(fast[r.layer]) ? r.fastest : fast[r.layer] + r.fastest;
              fastRank[r.layer] = r.fastestRank;
            }
          }
        }
        for (const r of recs) {
          if (r.rank < 0) continue;
          const s = sumOf(r.t);
          if (Number.isNaN(slow[r.layer]) || s > slow[r.layer]) {
            slow[r.layer] = s;
            slowRank[r.layer] = r.rank;
          }
        }
        const c = compose(layers);
        addInto(cumParts, c.parts);
        addInto(cumBeneath, c.beneath);
        fileTop = c.top;
        for (let l = 0; l < L; l++) for (let o = 0; o < NOPS; o++) fileOps[o] += c.parts[l * NOPS + o];
        // The slowest rank's time on the file: the outermost layer's record, else the nearest layer beneath that has
        // one plus the extra time above it spread over the ranks; never below the mean nor above the sum.
        let s = NaN;
        let who = -1;
        let fastS = NaN;
        let fastWho = -1;
        for (let l = 0; l < L && Number.isNaN(s); l++) {
          const t = layers[l];
          if (!t || Number.isNaN(slow[l])) continue;
          s = slow[l] + Math.max(0, c.total - sumOf(t)) / n;
          who = slowRank[l];
          if (!Number.isNaN(fast[l])) {
            fastS = fast[l] * (sumOf(t) > 0 ? c.total / sumOf(t) : 1);
            fastWho = fastRank[l];
          }
        }
        if (Number.isNaN(s)) {
          s = c.total / n;
          ranksExact = false;
        }
        // Where the recorded slowest rank (with what is spread over the ranks above it) is below the mean, the mean is
        // all the model knows: the part is an average, and says so.
        const mean = s <= c.total / n * (1 + 1e-9);
        s = Math.min(c.total, Math.max(s, c.total / n));
        files.slowest[f] = s;
        files.ranks[f] = n;
        sharedSlowest += s;
        if (c.total > 0) addInto(slowParts, c.parts, s / c.total);
        if (c.total > 0 && mean && n > 1) addInto(slowMean, c.parts, s / c.total);
        // Per-rank estimates: the recorded slowest and fastest ranks, the others the mean of the rest (added to every
        // rank at the end, once for all shared files, and taken back from the two recorded ones).
        ranksExact = false;
        let rest = c.total - s;
        let others = n - (who >= 0 ? 1 : 0);
        let fastOne = -1;
        let fastTime = 0;
        if (fastWho >= 0 && fastWho !== who && fastWho < nranks && !Number.isNaN(fastS)) {
          fastTime = Math.min(Math.max(0, fastS), rest);
          fastOne = fastWho;
          rest -= fastTime;
          others--;
        }
        const each = others > 0 && rest > 0 ? rest / others : 0;
        everyone += each;
        if (who >= 0 && who < nranks) rankSeconds[who] += s - each;
        if (fastOne >= 0) rankSeconds[fastOne] += fastTime - each;
      }
      files.layer.push(TIME_LAYERS[fileTop < L ? fileTop : LAYER_INDEX.get('other')!]);
      for (let o = 0; o < NOPS; o++) files.ops[o][f] = fileOps[o];
      files.total[f] = sumOf(fileOps);
    }
    // Nested calls beneath the rank's outer calls of the layers above theirs: into the same operation as far as its
    // time holds them, the rest into the other operations by the time they have left (a layer's calls inside one
    // outer operation can be of any kind: MPI_File_set_view inside an H5Dwrite). What no outer call of the rank holds
    // (calls nested in a call of no I/O layer, such as MPI_Init) is the rank's own time at that layer.
    for (const [rank, t] of this.nested) {
      const own = ownParts.get(rank)!;
      const excess = new Float64Array(L * NOPS);
      for (let x = 0; x < STACK_DEPTH; x++) {
        const room = new Float64Array(L * NOPS);
        for (let l = 0; l < x; l++) for (let p = 0; p < NOPS; p++) room[l * NOPS + p] = own[l * NOPS + p];
        const place = (l: number, p: number, s: number) => {
          cumBeneath[(l * NOPS + p) * L + x] += s;
          room[l * NOPS + p] = Math.max(0, room[l * NOPS + p] - s);
        };
        const left = new Float64Array(NOPS);
        for (let o = 0; o < NOPS; o++) {
          let s = t[x * NOPS + o];
          if (!(s > 0)) continue;
          let same = 0;
          for (let l = 0; l < x; l++) same += room[l * NOPS + o];
          const put = Math.min(s, same);
          if (put > 0) for (let l = 0; l < x; l++) if (room[l * NOPS + o] > 0) place(l, o, (put * room[l * NOPS + o]) / same);
          s -= put;
          left[o] = s;
        }
        let rest = 0;
        for (let o = 0; o < NOPS; o++) rest += left[o];
        let total = 0;
        for (let l = 0; l < x; l++) for (let p = 0; p < NOPS; p++) total += room[l * NOPS + p];
        const placed = Math.min(rest, total);
        if (placed > 0) {
          const snapshot = room.slice();
          for (let l = 0; l < x; l++) for (let p = 0; p < NOPS; p++) if (snapshot[l * NOPS + p] > 0) place(l, p, (placed * snapshot[l * NOPS + p]) / total);
        }
        if (rest > placed) for (let o = 0; o < NOPS; o++) excess[x * NOPS + o] = (left[o] * (rest - placed)) / rest;
      }
      const extra = excess.reduce((a, b) => a + b, 0);
      if (!(extra > 0)) continue;
      addInto(cumParts, excess);
      uniqueParts.push({ rank, parts: excess });
      if (rank < nranks) {
        uniqueByRank[rank] += extra;
        rankSeconds[rank] += extra;
      } else uniqueBeyond.set(rank, (uniqueBeyond.get(rank) ?? 0) + extra);
    }
    // A trace knows each rank's wall time in I/O, a log the run time it cannot exceed: calls a rank ran at once
    // (threads) count once.
    const wallScale = new Map<number, number>();
    let overlapSeconds = 0;
    const capRank = (rank: number, wall: number) => {
      const own = rank < nranks ? uniqueByRank[rank] : uniqueBeyond.get(rank) ?? 0;
      if (!(wall >= 0) || !(own > 0) || wall >= own * (1 - 1e-9)) return;
      wallScale.set(rank, wall / own);
      overlapSeconds += own - wall;
      if (rank < nranks) {
        rankSeconds[rank] -= own - wall;
        uniqueByRank[rank] = wall;
      } else uniqueBeyond.set(rank, wall);
    };
    if (opts.rankWall) for (const [rank, wall] of opts.rankWall) capRank(rank, Math.min(wall, opts.rankCap ?? Infinity));
    if (opts.rankCap !== undefined && opts.rankCap > 0) {
      const cap = opts.rankCap;
      for (let r = 0; r < nranks; r++) if (uniqueByRank[r] > cap) capRank(r, cap);
      for (const [r, t] of [...uniqueBeyond]) if (t > cap) capRank(r, cap);
    }
    if (everyone > 0) for (let r = 0; r < Math.min(n, nranks); r++) rankSeconds[r] += everyone;
    // The slowest rank over files of its own (the lowest rank of the largest total, as darshan-util picks it).
    let slowestUnique = -1;
    let uniqueTime = 0;
    for (let r = 0; r < nranks; r++) {
      if (uniqueByRank[r] > uniqueTime) {
        uniqueTime = uniqueByRank[r];
        slowestUnique = r;
      }
    }
    for (const [r, t] of uniqueBeyond) {
      if (t > uniqueTime || (t === uniqueTime && slowestUnique >= 0 && r < slowestUnique)) {
        uniqueTime = t;
        slowestUnique = r;
      }
    }
    const slowestScale = wallScale.get(slowestUnique) ?? 1;
    if (slowestUnique >= 0) for (const u of uniqueParts) if (u.rank === slowestUnique) addInto(slowParts, u.parts, slowestScale);
    const breakdown: TimeShare[] = [];
    for (let l = 0; l < L; l++) {
      for (let o = 0; o < NOPS; o++) {
        const cum = cumParts[l * NOPS + o];
        if (!(cum > 0)) continue;
        const beneath: Record<string, number> = {};
        for (let l2 = 0; l2 < L; l2++) {
          const b = cumBeneath[(l * NOPS + o) * L + l2];
          if (b > 0) beneath[TIME_LAYERS[l2]] = b;
        }
        const slow = slowParts[l * NOPS + o];
        const average = slow > 0 && slowMean[l * NOPS + o] >= 0.5 * slow;
        breakdown.push({ layer: TIME_LAYERS[l], op: IO_OPS[o], seconds: slow, cumulativeSeconds: cum, beneath, ...(average ? { slowestIsMean: true as const } : {}) });
      }
    }
    breakdown.sort((a, b) => b.cumulativeSeconds - a.cumulativeSeconds || b.seconds - a.seconds);
    let cumulativeIoTime = 0;
    for (const b of breakdown) cumulativeIoTime += b.cumulativeSeconds;
    let apartSlowest = 0;
    for (const s of apartByRank.values()) apartSlowest = Math.max(apartSlowest, s);
    apartSlowest += apartEveryone;
    apartFiles.sort((a, b) => b.cumulativeSeconds - a.cumulativeSeconds || b.seconds - a.seconds);
    const apart: ApartTime = { seconds: Math.min(apartSlowest, opts.rankCap ?? (opts.runTime > 0 ? opts.runTime : Infinity)), cumulativeSeconds: apartCum, files: apartFiles };
    return {
      runTime: opts.runTime,
      processes: opts.processes,
      ioTime: uniqueTime + sharedSlowest,
      cumulativeIoTime,
      breakdown,
      notRecorded: opts.notRecorded ?? [],
      files: { keys: this.keys, ...files },
      rankSeconds,
      ranksExact,
      slowestUniqueRank: slowestUnique,
      overlapSeconds,
      source: opts.source,
      apart,
      ...(opts.fileName ? { fileName: opts.fileName } : {}),
      ...(opts.rankLabels ? { rankLabels: opts.rankLabels } : {}),
    };
  }
}

/** The share of the I/O time, bounded to [0, 1] (0 when there is no I/O time). */
export function shareOf(seconds: number, total: number): number {
  return total > 0 ? Math.max(0, Math.min(1, seconds / total)) : 0;
}

/** How the I/O time spreads over ranks, for the report. */
export function rankTimes(m: TimeModel): RankTimes | null {
  const n = Math.min(m.rankSeconds.length, Math.max(m.processes, 0));
  if (n === 0) return null;
  let slow = 0, fast = 0;
  for (let r = 1; r < n; r++) {
    if (m.rankSeconds[r] > m.rankSeconds[slow]) slow = r;
    if (m.rankSeconds[r] < m.rankSeconds[fast]) fast = r;
  }
  const sorted = Array.from(m.rankSeconds.subarray(0, n)).sort((a, b) => a - b);
  const median = n % 2 ? sorted[n >> 1] : (sorted[(n >> 1) - 1] + sorted[n >> 1]) / 2;
  return { count: n, slowest: { rank: slow, seconds: m.rankSeconds[slow] }, fastest: { rank: fast, seconds: m.rankSeconds[fast] }, median, exact: m.ranksExact };
}

/** The costliest files (by cumulative seconds), named by `name`. */
export function topFiles(m: TimeModel, name: (key: bigint) => string, top = 10): FileTime[] {
  const idx: number[] = [];
  for (let f = 0; f < m.files.keys.length; f++) if (m.files.total[f] > 0) idx.push(f);
  idx.sort((a, b) => m.files.total[b] - m.files.total[a] || m.files.slowest[b] - m.files.slowest[a] || a - b);
  return idx.slice(0, top).map((f) => ({
    name: name(m.files.keys[f]),
    layer: m.files.layer[f],
    seconds: m.files.slowest[f],
    cumulativeSeconds: m.files.total[f],
    ops: Object.fromEntries(IO_OPS.map((o, k) => [o, m.files.ops[k][f]])) as Record<IoOp, number>,
    ranks: m.files.ranks[f],
  }));
}

const rowCache = new WeakMap<TimeModel, Map<bigint, number>>();

/** The model's row of a file key, or −1. */
export function fileRow(m: TimeModel, key: bigint): number {
  let idx = rowCache.get(m);
  if (!idx) {
    idx = new Map();
    m.files.keys.forEach((k, i) => idx!.set(k, i));
    rowCache.set(m, idx);
  }
  return idx.get(key) ?? -1;
}

/**
 * A file's cumulative seconds in some operation classes (all when none are named): the time of the calls the
 * application made on it, at the layer it called (0 for a file the model does not know).
 */
export function fileSeconds(m: TimeModel, key: bigint, ops?: readonly IoOp[]): number {
  const f = fileRow(m, key);
  if (f < 0) return 0;
  if (!ops) return m.files.total[f];
  let s = 0;
  for (const o of ops) s += m.files.ops[OP[o]][f];
  return s;
}
