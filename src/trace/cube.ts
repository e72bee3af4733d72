import { IntPairMap } from '../util/id-hash.js';
import { mergeLedgers, TimeLedger, type LedgerData } from '../facts/counters/ledger.js';
import { TraceInputError } from '../formats/trace/errors.js';
import { CATEGORY_COUNT, Category, LAYER_COUNT, type EventColumns, type TraceDicts } from '../formats/trace/model.js';

/**
 * The aggregation cube: every event of the selected layers is folded into one cell per
 * (process, file, fine time window). All views are derived from the cube, so memory is bounded by the number of
 * distinct (process, file, window) triples, not by the number of events.
 *
 * Time windows use a base width `base` (seconds) that starts fine (1 ms, or the requested granularity) and is
 * coarsened ×10 whenever a trace spans more than `MAX_WINDOWS` windows; the final view granularity is a multiple of it.
 */

/** Per-cell statistics layout (Float64 stride). */
export const S_OPS = 0; // + category
export const S_TIME = CATEGORY_COUNT; // + category
export const S_BYTES = 2 * CATEGORY_COUNT; // + category
export const S_SMALL_READ = 3 * CATEGORY_COUNT;
export const S_SMALL_WRITE = S_SMALL_READ + 1;
export const S_RANDOM = S_SMALL_READ + 2;
export const S_KNOWN_OFFSET = S_SMALL_READ + 3;
export const S_FIRST = S_SMALL_READ + 4;
export const S_LAST = S_SMALL_READ + 5;
export const STRIDE = S_SMALL_READ + 6;

/** Most windows a user-given granularity may make: a mistaken one is refused instead of making millions of cells. */
export const MAX_FIXED_WINDOWS = 2 ** 17;
/** Coarsen the base window when a trace spans more windows than this. */
export const MAX_WINDOWS = 20000;
/**
 * Event times (seconds) the cube accepts: at the 1 ms base a window number must be an exact integer (below 2^53), or
 * windows stop being numbers at all (a time of 1.7e308 s made the first window Infinity, and coarsening never ended).
 * 9.0e12 s is 285,000 years: past any clock a trace is read from, epoch seconds included.
 */
export const MAX_EVENT_SECONDS = 2 ** 53 * 1e-3;
/**
 * Coarsen the base window when the cube would hold more cells than this (adaptive base only), as long as the
 * coarser base stays within the time views' default window (span / DEFAULT_TIME_WINDOWS), so default views do not
 * change: many process-file pairs busy in many windows would otherwise grow the cube with the events. A base finer
 * than the default window shows in no view without `--granularity` (which fixes the base), so the budget is small
 * (2.7 MB of statistics): widening early saves making, hashing and merging cells nothing reads (5 M DXT segments of
 * 512 process-file pairs made 262,144 cells at 10 ms only to merge them into 87,987 at 100 ms; ~70 ms and 65 MiB).
 */
export const MAX_CELLS = 1 << 14;
/** Windows of a time view when no granularity is given (`defaultGranularity`). */
export const DEFAULT_TIME_WINDOWS = 100;

export interface CubeOptions {
  /** Bit mask of layers (1 << Layer) whose events go into the cube. */
  layerMask: number;
  /** Requests smaller than this many bytes count as small. */
  smallBytes: number;
  /** Fixed window width in seconds (user granularity); when absent the base adapts (1 ms ×10^k). */
  fixedBase?: number;
  /** Cells before the adaptive base is coarsened (default MAX_CELLS). */
  maxCells?: number;
}

/** A serialisable snapshot of a cube (for worker → main transfer and for merging). */
export interface CubeData {
  base: number;
  originWin: number;
  /** per pair */
  pairProc: Int32Array;
  pairFile: Int32Array;
  /** per cell */
  cellPair: Int32Array;
  cellWin: Int32Array;
  stats: Float64Array;
  funcCalls: Float64Array;
  layerCalls: Float64Array;
  events: number;
  minStart: number;
  maxEnd: number;
  /** Seconds and calls per (process, file, layer, category) over every event of every layer: the time model's input. */
  ledger: LedgerData;
}

export class Cube {
  base: number;
  originWin = NaN;
  private pairMap = new IntPairMap();
  pairProc = new Int32Array(1024);
  pairFile = new Int32Array(1024);
  /** Per (process, file) pair, the end of its last read (2·pair) and of its last write (2·pair + 1): −1 before any. */
  private pairLastEnd = new Float64Array(2048);
  npairs = 0;
  private cellMap = new IntPairMap(4096);
  cellPair = new Int32Array(4096);
  cellWin = new Int32Array(4096);
  stats = new Float64Array(4096 * STRIDE);
  ncells = 0;
  funcCalls = new Float64Array(256);
  layerCalls = new Float64Array(LAYER_COUNT);
  private readonly ledger = new TimeLedger();
  events = 0;
  minStart = Infinity;
  maxEnd = -Infinity;
  private minWin = 0;
  private maxWin = 0;
  /** Cells at which the adaptive base is coarsened next; at least twice the cells kept after each try. */
  private cellBudget: number;
  /**
   * The base is `per` units of `num / den` seconds (1 ms, or the granularity asked for, as a decimal fraction). An
   * event's unit window is the last one whose start — `u · num / den`, the double nearest the decimal boundary — is
   * at or before it, and its window that unit window's `per`-th part. So an event at 16.4 s lies in the window that
   * starts at 16.4 s whether the base is 1 ms or 100 ms (`floor(16.4 / 0.1)` is 163), and the window never depends on
   * when the base widened.
   */
  private readonly num: number;
  private readonly den: number;
  private per = 1;

  constructor(readonly opts: CubeOptions) {
    this.base = opts.fixedBase ?? 1e-3;
    ({ num: this.num, den: this.den } = decimalFraction(this.base));
    this.cellBudget = opts.fixedBase === undefined ? (opts.maxCells ?? MAX_CELLS) : Infinity;
  }

  /**
   * `locate`'s input and output: [3] the time to look up; [0] its window of the base (absolute: not counted from the
   * origin), [1] and [2] where that window starts and ends (seconds). A time goes in through this array, not as an
   * argument: V8 boxes a double passed to a call, and once two rare paths of `add` passed the event's start, it boxed
   * every event's (100 MB of garbage for 5 M events).
   */
  private readonly win = Float64Array.of(0, Infinity, -Infinity, 0);

  /** Finds the window of the time in win[3] (see `win`). */
  private locate(): void {
    const win = this.win;
    const t = win[3];
    const num = this.num;
    const den = this.den;
    let u = Math.floor((t * den) / num);
    if (((u + 1) * num) / den <= t) u++;
    else if ((u * num) / den > t) u--;
    const w = Math.floor(u / this.per);
    win[0] = w;
    win[1] = (w * this.per * num) / den;
    win[2] = ((w + 1) * this.per * num) / den;
  }

  private newPair(proc: number, file: number): number {
    const i = this.npairs++;
    if (i === this.pairProc.length) {
      const n = i * 2;
      const a = new Int32Array(n);
      a.set(this.pairProc);
      this.pairProc = a;
      const b = new Int32Array(n);
      b.set(this.pairFile);
      this.pairFile = b;
      const c = new Float64Array(2 * n);
      c.set(this.pairLastEnd);
      this.pairLastEnd = c;
    }
    this.pairProc[i] = proc;
    this.pairFile[i] = file;
    this.pairLastEnd[2 * i] = -1;
    this.pairLastEnd[2 * i + 1] = -1;
    this.pairMap.set(proc, file, i);
    return i;
  }

  private newCell(pair: number, win: number): number {
    const i = this.ncells++;
    if (i === this.cellPair.length) {
      const n = i * 2;
      const a = new Int32Array(n);
      a.set(this.cellPair);
      this.cellPair = a;
      const b = new Int32Array(n);
      b.set(this.cellWin);
      this.cellWin = b;
      const c = new Float64Array(n * STRIDE);
      c.set(this.stats);
      this.stats = c;
    }
    this.cellPair[i] = pair;
    this.cellWin[i] = win;
    const o = i * STRIDE;
    this.stats[o + S_FIRST] = Infinity;
    this.stats[o + S_LAST] = -Infinity;
    this.cellMap.set(pair, win, i);
    return i;
  }

  /** Folds a chunk of events into the cube. */
  add(c: EventColumns): void {
    this.ledger.add(c);
    const n = c.length;
    const mask = this.opts.layerMask;
    const small = this.opts.smallBytes;
    let funcCalls = this.funcCalls;
    const layerCalls = this.layerCalls;
    let lastProc = -1;
    let lastFile = -2;
    let pair = -1;
    let lastWin = NaN;
    let cell = -1;
    // the window of the last event looked up, kept until the base widens
    const win = this.win;
    for (let i = 0; i < n; i++) {
      const f = c.func[i];
      if (f >= funcCalls.length) {
        const g = new Float64Array(Math.max(f + 1, funcCalls.length * 2));
        g.set(funcCalls);
        this.funcCalls = funcCalls = g;
      }
      funcCalls[f]++;
      const layer = c.layer[i];
      layerCalls[layer]++;
      const start = c.start[i];
      let end = c.end[i];
      if (Math.abs(start) > MAX_EVENT_SECONDS || Math.abs(end) > MAX_EVENT_SECONDS) {
        throw new TraceInputError(`an event at ${start}–${end} s, past the ${MAX_EVENT_SECONDS.toExponential(1)} s a trace's clock can reach`);
      }
      if (end < start) end = start;
      if (start < this.minStart) this.minStart = start;
      if (end > this.maxEnd) this.maxEnd = end;
      if (((mask >> layer) & 1) === 0) continue;
      this.events++;
      const proc = c.proc[i];
      const file = c.file[i];
      if (proc !== lastProc || file !== lastFile) {
        lastProc = proc;
        lastFile = file;
        pair = this.pairMap.get(proc, file);
        if (pair < 0) pair = this.newPair(proc, file);
        lastWin = NaN;
      }
      if (!(start >= win[1] && start < win[2])) {
        win[3] = start;
        this.locate();
      }
      let absWin = win[0];
      if (this.originWin !== this.originWin) this.originWin = absWin;
      let w = absWin - this.originWin;
      if (w < this.minWin || w > this.maxWin) {
        if (this.opts.fixedBase === undefined) {
          while (Math.max(this.maxWin, w) - Math.min(this.minWin, w) > MAX_WINDOWS) {
            this.coarsen();
            win[3] = start;
            this.locate();
            absWin = win[0];
            w = absWin - this.originWin;
          }
        } else if (Math.max(this.maxWin, w) - Math.min(this.minWin, w) >= MAX_FIXED_WINDOWS) {
          throw new TraceInputError(`time granularity ${this.base} s gives more than ${MAX_FIXED_WINDOWS} windows; choose a coarser one`);
        }
        if (w < this.minWin) this.minWin = w;
        if (w > this.maxWin) this.maxWin = w;
        lastWin = NaN;
      }
      if (w !== lastWin) {
        let found = this.cellMap.get(pair, w);
        if (found < 0 && this.ncells >= this.cellBudget) {
          if (this.base * 10 <= (this.maxEnd - this.minStart) / DEFAULT_TIME_WINDOWS) {
            this.coarsen();
            win[3] = start;
            this.locate();
            w = win[0] - this.originWin;
            if (w < this.minWin) this.minWin = w;
            if (w > this.maxWin) this.maxWin = w;
            found = this.cellMap.get(pair, w);
          }
          // past the cells left (or those kept when the base may not widen): the next check comes after as many again
          this.cellBudget = Math.max(this.cellBudget, 2 * this.ncells);
        }
        lastWin = w;
        cell = found >= 0 ? found : this.newCell(pair, w);
      }
      const cat = c.category[i];
      const size = c.size[i];
      const o = cell * STRIDE;
      const st = this.stats;
      st[o + S_OPS + cat]++;
      st[o + S_TIME + cat] += end - start;
      if (size > 0) st[o + S_BYTES + cat] += size;
      if (cat === Category.READ || cat === Category.WRITE) {
        if (size >= 0 && size < small) st[o + (cat === Category.READ ? S_SMALL_READ : S_SMALL_WRITE)]++;
        const off = c.offset[i];
        if (off >= 0) {
          st[o + S_KNOWN_OFFSET]++;
          // Backwards from the previous access in the same direction, as Darshan's SEQ counters judge it: a read of
          // what was just written is no random read.
          const k = 2 * pair + (cat === Category.WRITE ? 1 : 0);
          const le = this.pairLastEnd[k];
          if (le >= 0 && off < le) st[o + S_RANDOM]++;
          this.pairLastEnd[k] = off + (size > 0 ? size : 0);
        }
      }
      if (start < st[o + S_FIRST]) st[o + S_FIRST] = start;
      if (end > st[o + S_LAST]) st[o + S_LAST] = end;
    }
  }

  /** Multiplies the base window by 10 and merges cells that fall together. */
  private coarsen(): void {
    const origin = this.originWin;
    const newOrigin = Math.floor(origin / 10);
    const oldPair = this.cellPair.slice(0, this.ncells);
    const oldWin = this.cellWin.slice(0, this.ncells);
    const oldStats = this.stats.slice(0, this.ncells * STRIDE);
    const count = this.ncells;
    this.cellMap.clear();
    this.ncells = 0;
    this.stats = new Float64Array(this.stats.length);
    for (let i = 0; i < count; i++) {
      const w = Math.floor((origin + oldWin[i]) / 10) - newOrigin;
      let cell = this.cellMap.get(oldPair[i], w);
      if (cell < 0) cell = this.newCell(oldPair[i], w);
      mergeStats(this.stats, cell * STRIDE, oldStats, i * STRIDE);
    }
    this.originWin = newOrigin;
    this.per *= 10;
    this.base = (this.per * this.num) / this.den;
    this.win[1] = Infinity;
    this.win[2] = -Infinity;
    this.minWin = 0;
    this.maxWin = 0;
    for (let i = 0; i < this.ncells; i++) {
      if (this.cellWin[i] < this.minWin) this.minWin = this.cellWin[i];
      if (this.cellWin[i] > this.maxWin) this.maxWin = this.cellWin[i];
    }
  }

  snapshot(): CubeData {
    return {
      base: this.base,
      originWin: this.originWin !== this.originWin ? 0 : this.originWin,
      pairProc: this.pairProc.slice(0, this.npairs),
      pairFile: this.pairFile.slice(0, this.npairs),
      cellPair: this.cellPair.slice(0, this.ncells),
      cellWin: this.cellWin.slice(0, this.ncells),
      stats: this.stats.slice(0, this.ncells * STRIDE),
      funcCalls: this.funcCalls.slice(),
      layerCalls: this.layerCalls.slice(),
      events: this.events,
      minStart: this.minStart,
      maxEnd: this.maxEnd,
      ledger: this.ledger.snapshot(),
    };
  }
}

/** `x` as `num / den` with den a power of ten when it is such a fraction (0.001 is 1 / 1000), else `x / 1`. */
function decimalFraction(x: number): { num: number; den: number } {
  for (let den = 1; den <= 1e12; den *= 10) {
    const num = Math.round(x * den);
    if (num > 0 && num / den === x) return { num, den };
  }
  return { num: x, den: 1 };
}

export function mergeStats(dst: Float64Array, d: number, src: Float64Array, s: number): void {
  for (let k = 0; k < S_FIRST; k++) dst[d + k] += src[s + k];
  if (src[s + S_FIRST] < dst[d + S_FIRST]) dst[d + S_FIRST] = src[s + S_FIRST];
  if (src[s + S_LAST] > dst[d + S_LAST]) dst[d + S_LAST] = src[s + S_LAST];
}

/**
 * Merges cube snapshots produced with different dictionaries (e.g. by worker threads) into one, re-mapping process,
 * file and function ids through `maps` into the global dictionaries. Window bases are brought to the coarsest, or to
 * `base` when that is coarser still (a whole multiple of every part's).
 */
export function mergeCubes(
  parts: { data: CubeData; procMap: Int32Array; fileMap: Int32Array; funcMap: Int32Array }[],
  atLeast = 0,
): CubeData {
  const withData = parts.filter((p) => p.data.cellPair.length > 0);
  const base = Math.max(atLeast, ...parts.map((p) => p.data.base));
  let originWin = Infinity;
  for (const p of withData) originWin = Math.min(originWin, Math.floor(p.data.originWin / Math.round(base / p.data.base)));
  if (!Number.isFinite(originWin)) originWin = 0;
  // Pairs first: the merged pair of every part's pairs, and in how many parts each merged pair occurs.
  const pairMap = new IntPairMap();
  const pairProc: number[] = [];
  const pairFile: number[] = [];
  const pairParts: number[] = [];
  const localPairs = parts.map(({ data, procMap, fileMap }) => {
    const localPair = new Int32Array(data.pairProc.length);
    for (let p = 0; p < data.pairProc.length; p++) {
      const proc = procMap[data.pairProc[p]];
      const file = data.pairFile[p] < 0 ? -1 : fileMap[data.pairFile[p]];
      let id = pairMap.get(proc, file);
      if (id < 0) {
        id = pairProc.length;
        pairProc.push(proc);
        pairFile.push(file);
        pairParts.push(0);
        pairMap.set(proc, file, id);
      }
      pairParts[id]++;
      localPair[p] = id;
    }
    return localPair;
  });
  const most = parts.reduce((a, p) => a + p.data.cellPair.length, 0);
  // only cells that may meet others are indexed (none when the parts hold distinct pairs at one base)
  const cellMap = new IntPairMap();
  const cellPair = new Int32Array(most);
  const cellWin = new Int32Array(most);
  const stats = new Float64Array(most * STRIDE);
  let ncells = 0;
  let funcCalls = new Float64Array(0);
  const layerCalls = new Float64Array(LAYER_COUNT);
  let events = 0;
  let minStart = Infinity;
  let maxEnd = -Infinity;
  for (const [i, { data, funcMap }] of parts.entries()) {
    events += data.events;
    minStart = Math.min(minStart, data.minStart);
    maxEnd = Math.max(maxEnd, data.maxEnd);
    for (let l = 0; l < LAYER_COUNT; l++) layerCalls[l] += data.layerCalls[l];
    for (let f = 0; f < data.funcCalls.length; f++) {
      if (data.funcCalls[f] === 0) continue;
      const g = funcMap[f];
      if (g >= funcCalls.length) {
        const h = new Float64Array(Math.max(g + 1, funcCalls.length * 2));
        h.set(funcCalls);
        funcCalls = h;
      }
      funcCalls[g] += data.funcCalls[f];
    }
    const ratio = Math.round(base / data.base);
    const localPair = localPairs[i];
    for (let c = 0; c < data.cellPair.length; c++) {
      const abs = Math.floor((data.originWin + data.cellWin[c]) / ratio);
      const w = abs - originWin;
      const pair = localPair[data.cellPair[c]];
      // A cell of a pair no other part has, in a part whose windows are the merged ones, is new: a part (a cube's
      // snapshot, or a partial-cube file one wrote) holds one cell per pair and window. Only cells that may meet
      // others go through the index.
      let id = ratio === 1 && pairParts[pair] === 1 ? -1 : cellMap.get(pair, w);
      if (id < 0) {
        id = ncells++;
        cellPair[id] = pair;
        cellWin[id] = w;
        if (ratio !== 1 || pairParts[pair] !== 1) cellMap.set(pair, w, id);
        stats[id * STRIDE + S_FIRST] = Infinity;
        stats[id * STRIDE + S_LAST] = -Infinity;
      }
      mergeStats(stats, id * STRIDE, data.stats, c * STRIDE);
    }
  }
  return {
    base,
    originWin,
    pairProc: Int32Array.from(pairProc),
    pairFile: Int32Array.from(pairFile),
    // (no copy when no two parts shared a cell: then every cell was new)
    cellPair: ncells === most ? cellPair : cellPair.slice(0, ncells),
    cellWin: ncells === most ? cellWin : cellWin.slice(0, ncells),
    stats: ncells === most ? stats : stats.slice(0, ncells * STRIDE),
    funcCalls,
    layerCalls,
    events,
    minStart,
    maxEnd,
    ledger: mergeLedgers(parts.map(({ data, procMap, fileMap }) => ({ data: data.ledger, procMap, fileMap }))),
  };
}

/** Identity id maps for a cube built directly with the global dictionaries. */
export function identityMaps(d: TraceDicts): { procMap: Int32Array; fileMap: Int32Array; funcMap: Int32Array } {
  const id = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
  return { procMap: id(d.procs.size), fileMap: id(d.files.size), funcMap: id(d.funcs.size) };
}
