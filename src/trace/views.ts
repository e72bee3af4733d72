import { TRACE_METRICS, type TraceMetric } from '../contract/index.js';
import { CATEGORY_COUNT, Category, type TraceDicts } from '../formats/trace/model.js';
import { viewName, type Dim } from './view-catalogue.js';
import {
  S_BYTES, S_FIRST, S_KNOWN_OFFSET, S_LAST, S_OPS, S_RANDOM, S_SMALL_READ, S_SMALL_WRITE, S_TIME, STRIDE, mergeStats,
  DEFAULT_TIME_WINDOWS, type CubeData,
} from './cube.js';

/** Names of the numeric columns every view record carries (usable in YAML rules): the contract's trace metrics. */
export const METRIC_COLUMNS = TRACE_METRICS;
export type MetricName = TraceMetric;
export type Metrics = Record<MetricName, number>;

export interface ViewRecord {
  /** Dimension values (strings; time as window start in seconds since the trace start). */
  key: Partial<Record<Dim, string | number>>;
  metrics: Metrics;
}

export interface ViewResult {
  name: string;
  dims: Dim[];
  /** Parent view for ordered combinations (`proc>file` → `proc`), restricted to the parent's bottlenecks. */
  parent?: string;
  records: ViewRecord[];
}

/** Totals over the whole cube used for shares. */
export interface Totals {
  time: number;
  ops: number;
  bytes: number;
}

/** Everything needed to derive views from a (merged) cube. */
export class ViewContext {
  readonly pairDir: Int32Array;
  readonly pairPattern: Int32Array;
  readonly dirNames: string[] = [];
  readonly patternNames: string[] = [];
  readonly cellTime: Float64Array;
  readonly totals: Totals;
  /** first window index (in granularity units) */
  readonly win0: number;
  /** seconds since the epoch (or the trace's own origin) of the earliest event */
  readonly t0: number;

  constructor(
    readonly cube: CubeData,
    readonly dicts: TraceDicts,
    /** window width in seconds (a multiple of cube.base) */
    readonly granularity: number,
  ) {
    const dirIds = new Map<string, number>();
    const patIds = new Map<string, number>();
    const fileDir = new Int32Array(dicts.files.size);
    const filePat = new Int32Array(dicts.files.size);
    for (let f = 0; f < dicts.files.size; f++) {
      const name = dicts.files.get(f);
      const slash = name.lastIndexOf('/');
      const dir = slash > 0 ? name.slice(0, slash) : slash === 0 ? '/' : '.';
      const pat = name.replace(/\d+/g, '*');
      let d = dirIds.get(dir);
      if (d === undefined) {
        dirIds.set(dir, (d = this.dirNames.length));
        this.dirNames.push(dir);
      }
      let p = patIds.get(pat);
      if (p === undefined) {
        patIds.set(pat, (p = this.patternNames.length));
        this.patternNames.push(pat);
      }
      fileDir[f] = d;
      filePat[f] = p;
    }
    const np = cube.pairProc.length;
    this.pairDir = new Int32Array(np);
    this.pairPattern = new Int32Array(np);
    for (let i = 0; i < np; i++) {
      const f = cube.pairFile[i];
      this.pairDir[i] = f < 0 ? -1 : fileDir[f];
      this.pairPattern[i] = f < 0 ? -1 : filePat[f];
    }
    const m = Math.max(1, Math.round(granularity / cube.base));
    const nc = cube.cellPair.length;
    this.cellTime = new Float64Array(nc);
    let minW = Infinity;
    for (let c = 0; c < nc; c++) {
      const w = Math.floor((cube.originWin + cube.cellWin[c]) / m);
      this.cellTime[c] = w;
      if (w < minW) minW = w;
    }
    this.win0 = Number.isFinite(minW) ? minW : 0;
    this.t0 = cube.minStart;
    let time = 0;
    let ops = 0;
    let bytes = 0;
    const st = cube.stats;
    for (let c = 0; c < nc; c++) {
      const o = c * STRIDE;
      for (let k = 0; k < 5; k++) {
        time += st[o + S_TIME + k];
        ops += st[o + S_OPS + k];
        bytes += st[o + S_BYTES + k];
      }
    }
    this.totals = { time, ops, bytes };
  }

  private readonly columns = new Map<Dim, { col: Int32Array; slots: number }>();
  private pairs: PairSums | null | undefined;

  /**
   * Every (process, file) pair's sums of the cube's count fields, its first start and last end, and its first cell;
   * null when some count is not a non-negative integer or the counts of all fields together reach 2^53 (views also add
   * a process's operations or bytes over the categories): then a sum of counts may depend on the order of its terms,
   * and views add cells one by one.
   */
  pairSums(): PairSums | null {
    if (this.pairs !== undefined) return this.pairs;
    const cube = this.cube;
    const np = cube.pairProc.length;
    const nc = cube.cellPair.length;
    const counts = new Float64Array(np * COUNT_FIELDS.length);
    const first = new Float64Array(np).fill(Infinity);
    const last = new Float64Array(np).fill(-Infinity);
    const firstCell = new Int32Array(np).fill(-1);
    let total = 0;
    const st = cube.stats;
    let exact = true;
    for (let c = 0; c < nc && exact; c++) {
      const p = cube.cellPair[c];
      const o = c * STRIDE;
      if (firstCell[p] < 0) firstCell[p] = c;
      for (let k = 0; k < COUNT_FIELDS.length; k++) {
        const v = st[o + COUNT_FIELDS[k]];
        if (!(v >= 0 && Number.isInteger(v))) exact = false;
        counts[p * COUNT_FIELDS.length + k] += v;
        total += v;
      }
      if (st[o + S_FIRST] < first[p]) first[p] = st[o + S_FIRST];
      if (st[o + S_LAST] > last[p]) last[p] = st[o + S_LAST];
    }
    if (!exact || !(total < EXACT_LIMIT)) return (this.pairs = null);
    // pairs in the order of their first cell
    const byCell = new Int32Array(nc).fill(-1);
    let withCells = 0;
    for (let p = 0; p < np; p++) if (firstCell[p] >= 0) (byCell[firstCell[p]] = p), withCells++;
    const order = new Int32Array(withCells);
    for (let c = 0, i = 0; c < nc; c++) if (byCell[c] >= 0) order[i++] = byCell[c];
    this.pairs = { counts, first, last, firstCell, order };
    return this.pairs;
  }

  private column(d: Dim): { col: Int32Array; slots: number } {
    let e = this.columns.get(d);
    if (e === undefined) {
      const cube = this.cube;
      const nc = cube.cellPair.length;
      const col = new Int32Array(nc);
      if (d === 'time') {
        for (let c = 0; c < nc; c++) col[c] = this.cellTime[c] - this.win0;
      } else {
        // the dimension is a property of the cell's (process, file) pair
        const byPair = this.pairColumn(d);
        for (let c = 0; c < nc; c++) col[c] = byPair[cube.cellPair[c]];
      }
      let max = -1;
      for (let c = 0; c < nc; c++) if (col[c] > max) max = col[c];
      e = { col, slots: max + 2 };
      this.columns.set(d, e);
    }
    return e;
  }

  private readonly pairColumns = new Map<Dim, Int32Array>();

  /** Dimension value ids of every (process, file) pair, for a dimension other than time. */
  pairColumn(d: Exclude<Dim, 'time'>): Int32Array {
    let byPair = this.pairColumns.get(d);
    if (byPair === undefined) {
      const np = this.cube.pairProc.length;
      byPair = new Int32Array(np);
      for (let p = 0; p < np; p++) byPair[p] = this.pairDimId(d, p);
      this.pairColumns.set(d, byPair);
    }
    return byPair;
  }

  /** Dimension value ids of every cell (−1 = none), computed once per dimension. */
  dimColumn(d: Dim): Int32Array {
    return this.column(d).col;
  }

  /** Distinct slots a dimension's ids need (ids run from −1 to slots − 2). */
  dimSlots(d: Dim): number {
    return this.column(d).slots;
  }

  /** Dimension value id of cell `c` (−1 = none). */
  dimId(d: Dim, c: number): number {
    return d === 'time' ? this.cellTime[c] - this.win0 : this.pairDimId(d, this.cube.cellPair[c]);
  }

  /** Id of a non-time dimension's value for a (process, file) pair. */
  private pairDimId(d: Exclude<Dim, 'time'>, pair: number): number {
    switch (d) {
      case 'file':
        return this.cube.pairFile[pair];
      case 'proc':
        return this.cube.pairProc[pair];
      case 'app':
        return this.dicts.procApp[this.cube.pairProc[pair]];
      case 'host':
        return this.dicts.procHost[this.cube.pairProc[pair]];
      case 'dir':
        return this.pairDir[pair];
      case 'pattern':
        return this.pairPattern[pair];
    }
  }

  dimLabel(d: Dim, id: number): string | number {
    if (id < 0 && d !== 'time') return '<no file>';
    switch (d) {
      case 'file':
        return this.dicts.files.get(id);
      case 'proc':
        return this.dicts.procs.get(id);
      case 'time':
        // windows are aligned on multiples of the granularity; label = start of the window relative to the start of the first window
        return round6(id * this.granularity);
      case 'app':
        return this.dicts.apps.get(id);
      case 'host':
        return this.dicts.hosts.get(id);
      case 'dir':
        return this.dirNames[id];
      case 'pattern':
        return this.patternNames[id];
    }
  }
}

/** The cube's count fields (operations, bytes, small, random and known-offset operations): sums of integers. */
const COUNT_FIELDS: readonly number[] = Array.from({ length: S_FIRST }, (_, k) => k).filter((k) => k < S_TIME || k >= S_TIME + CATEGORY_COUNT);
/** Integers below this are exact doubles, so are sums below it, in any order. */
const EXACT_LIMIT = 2 ** 53;
/** Where a pair's operation and byte counts start among its COUNT_FIELDS sums. */
const OPS_AT = COUNT_FIELDS.indexOf(S_OPS);
const BYTES_AT = COUNT_FIELDS.indexOf(S_BYTES);

interface PairSums {
  /** pair × COUNT_FIELDS */
  readonly counts: Float64Array;
  readonly first: Float64Array;
  readonly last: Float64Array;
  /** The pair's first cell (−1: none). */
  readonly firstCell: Int32Array;
  /** The pairs that have cells, in the order of their first cell. */
  readonly order: Int32Array;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * Id tables up to `denseSlots` slots are dense arrays; larger key spaces use a Map (tests lower it to cover both).
 * `byPair`: views without a time dimension add their counts pair by pair (tests turn it off to compare).
 */
export const viewTables = { denseSlots: 1 << 22, byPair: true };

/** Numbers keys from [0, slots) in the order they are first seen: a dense array for small key spaces, else a Map. */
class KeyIds {
  private readonly dense: Int32Array | null;
  private readonly map: Map<number, number> | null;
  size = 0;
  constructor(slots: number) {
    this.dense = slots <= viewTables.denseSlots ? new Int32Array(slots).fill(-1) : null;
    this.map = this.dense === null ? new Map() : null;
  }
  /** The id of `key`; a new key gets the next id (then `id(key) === size - 1`). */
  id(key: number): number {
    if (this.dense !== null) {
      const d = this.dense[key];
      if (d >= 0) return d;
      return (this.dense[key] = this.size++);
    }
    const m = this.map!.get(key);
    if (m !== undefined) return m;
    this.map!.set(key, this.size);
    return this.size++;
  }
}

/** 1 at (id + 1) for every first-dimension id `allowed` holds, of a dimension with `slots` slots; null: all. */
function allowedMask(allowed: Set<number> | undefined, slots: number): Uint8Array | null {
  if (!allowed) return null;
  const mask = new Uint8Array(slots);
  for (const id of allowed) if (id + 1 >= 0 && id + 1 < slots) mask[id + 1] = 1;
  return mask;
}

/**
 * The record of every cell of a view (−1 = filtered out) and the first cell of every record, records numbered in the
 * order of their first cell.
 */
function groupCells(ctx: ViewContext, dims: readonly Dim[], allowed: Set<number> | undefined): { recOf: Int32Array; recCell: number[] } {
  const nc = ctx.cube.cellPair.length;
  const cols = dims.map((d) => ctx.dimColumn(d));
  const sizes = dims.map((d) => ctx.dimSlots(d));
  let slots = 1;
  for (const s of sizes) slots *= s;
  // a cell's key: mixed radix over (id + 1) of each dimension (exact below 2^53, else the ids as text)
  const keyOf = new Float64Array(nc);
  const col0 = cols[0];
  for (let c = 0; c < nc; c++) keyOf[c] = col0[c] + 1;
  for (let k = 1; k < cols.length; k++) {
    const col = cols[k];
    const size = sizes[k];
    for (let c = 0; c < nc; c++) keyOf[c] = keyOf[c] * size + (col[c] + 1);
  }
  const mask = allowedMask(allowed, sizes[0]);
  const recOf = new Int32Array(nc);
  const recCell: number[] = [];
  const text = slots > Number.MAX_SAFE_INTEGER ? new Map<string, number>() : null;
  const ids = new KeyIds(text === null ? slots : 0);
  for (let c = 0; c < nc; c++) {
    if (mask !== null && mask[col0[c] + 1] !== 1) {
      recOf[c] = -1;
      continue;
    }
    let r: number;
    if (text === null) r = ids.id(keyOf[c]);
    else {
      const key = cols.map((col) => col[c]).join(',');
      r = text.get(key) ?? text.size;
      if (r === text.size) text.set(key, r);
    }
    if (r === recCell.length) recCell.push(c);
    recOf[c] = r;
  }
  return { recOf, recCell };
}

/** What a view adds up per record, before its metrics are derived. */
interface Aggregate {
  /** The first cell of every record, records numbered in the order of their first cell. */
  readonly recCell: number[];
  readonly stats: Float64Array;
  readonly nprocs: Float64Array;
  readonly nfiles: Float64Array;
  readonly maxOps: Float64Array;
  readonly maxBytes: Float64Array;
  readonly maxTime: Float64Array;
}

/**
 * Computes a view: groups cube cells by `dims`. When `allowed` is given (ordered combinations), only cells whose
 * first-dimension value is in it are used. Records come in the order of their first cell and every time sum is taken
 * in cell order. A view without a time dimension groups whole (process, file) pairs: their counts are added pair by
 * pair (sums of integers below 2^53, the same in any order) and only the times cell by cell.
 */
export function computeView(ctx: ViewContext, dims: readonly Dim[], allowed?: Set<number>, parent?: string): ViewResult {
  const pairs = dims.includes('time') || !viewTables.byPair ? null : ctx.pairSums();
  const a = (pairs && aggregatePairs(ctx, dims as readonly Exclude<Dim, 'time'>[], allowed, pairs)) || aggregateCells(ctx, dims, allowed);
  const records: ViewRecord[] = [];
  for (let r = 0; r < a.recCell.length; r++) {
    const key: Partial<Record<Dim, string | number>> = {};
    for (const d of dims) key[d] = ctx.dimLabel(d, ctx.dimColumn(d)[a.recCell[r]]);
    records.push({
      key,
      metrics: deriveMetrics(a.stats, r * STRIDE, ctx.totals, ctx.t0, {
        nprocs: a.nprocs[r],
        nfiles: a.nfiles[r],
        maxOps: a.maxOps[r],
        maxBytes: a.maxBytes[r],
        maxTime: a.maxTime[r],
      }),
    });
  }
  return { name: viewName(dims), dims: [...dims], ...(parent ? { parent } : {}), records };
}

/** Per-record sums and per-(record, process) sums with their maxima. */
class Sums {
  readonly stats: Float64Array;
  readonly nfiles: Float64Array;
  readonly procIds: KeyIds;
  readonly fileIds: KeyIds;
  procAgg = new Float64Array(1024 * 3);
  procRec = new Int32Array(1024);

  constructor(
    readonly n: number,
    private readonly nprocTotal: number,
    private readonly nfileTotal: number,
  ) {
    this.stats = new Float64Array(n * STRIDE);
    for (let r = 0; r < n; r++) {
      this.stats[r * STRIDE + S_FIRST] = Infinity;
      this.stats[r * STRIDE + S_LAST] = -Infinity;
    }
    this.nfiles = new Float64Array(n);
    this.procIds = new KeyIds(n * nprocTotal);
    this.fileIds = new KeyIds(n * nfileTotal);
  }

  /** The slot of (record, process) in `procAgg` (ops, bytes, time). */
  proc(r: number, proc: number): number {
    const pa = this.procIds.id(r * this.nprocTotal + proc);
    if (pa === this.procRec.length) {
      const g = new Float64Array(this.procAgg.length * 2);
      g.set(this.procAgg);
      this.procAgg = g;
      const h = new Int32Array(this.procRec.length * 2);
      h.set(this.procRec);
      this.procRec = h;
    }
    this.procRec[pa] = r;
    return pa;
  }

  /** Counts a file (≥ 0) for record r once. */
  file(r: number, file: number): void {
    if (file < 0) return;
    const before = this.fileIds.size;
    if (this.fileIds.id(r * this.nfileTotal + file) === before) this.nfiles[r]++;
  }

  finish(recCell: number[]): Aggregate {
    const n = this.n;
    const nprocs = new Float64Array(n);
    const maxOps = new Float64Array(n);
    const maxBytes = new Float64Array(n);
    const maxTime = new Float64Array(n);
    const { procAgg, procRec } = this;
    for (let pa = 0; pa < this.procIds.size; pa++) {
      const r = procRec[pa];
      nprocs[r]++;
      if (procAgg[pa * 3] > maxOps[r]) maxOps[r] = procAgg[pa * 3];
      if (procAgg[pa * 3 + 1] > maxBytes[r]) maxBytes[r] = procAgg[pa * 3 + 1];
      if (procAgg[pa * 3 + 2] > maxTime[r]) maxTime[r] = procAgg[pa * 3 + 2];
    }
    return { recCell, stats: this.stats, nprocs, nfiles: this.nfiles, maxOps, maxBytes, maxTime };
  }
}

/** A view's sums over its cells one by one. */
function aggregateCells(ctx: ViewContext, dims: readonly Dim[], allowed: Set<number> | undefined): Aggregate {
  const cube = ctx.cube;
  const nc = cube.cellPair.length;
  const { recOf, recCell } = groupCells(ctx, dims, allowed);
  const sums = new Sums(recCell.length, ctx.dicts.procs.size, ctx.dicts.files.size);
  const { stats } = sums;
  const pairProc = cube.pairProc;
  const pairFile = cube.pairFile;
  const cellPair = cube.cellPair;
  const cst = cube.stats;
  for (let c = 0; c < nc; c++) {
    const r = recOf[c];
    if (r < 0) continue;
    const o = c * STRIDE;
    mergeStats(stats, r * STRIDE, cst, o);
    const pair = cellPair[c];
    const pa = sums.proc(r, pairProc[pair]);
    const procAgg = sums.procAgg;
    for (let k = 0; k < CATEGORY_COUNT; k++) {
      procAgg[pa * 3] += cst[o + S_OPS + k];
      procAgg[pa * 3 + 1] += cst[o + S_BYTES + k];
      procAgg[pa * 3 + 2] += cst[o + S_TIME + k];
    }
    sums.file(r, pairFile[pair]);
  }
  return sums.finish(recCell);
}

/**
 * A view without a time dimension, over whole pairs: a pair's cells all belong to one record. Null when the key space
 * is too large for numeric keys (the cells' path handles it).
 */
function aggregatePairs(ctx: ViewContext, dims: readonly Exclude<Dim, 'time'>[], allowed: Set<number> | undefined, ps: PairSums): Aggregate | null {
  const cube = ctx.cube;
  const cols = dims.map((d) => ctx.pairColumn(d));
  const sizes = dims.map((d) => ctx.dimSlots(d));
  let slots = 1;
  for (const s of sizes) slots *= s;
  if (slots > Number.MAX_SAFE_INTEGER) return null;
  const mask = allowedMask(allowed, sizes[0]);
  // records numbered in the order of their first cell: pairs taken in the order of theirs
  const np = cube.pairProc.length;
  const recOfPair = new Int32Array(np).fill(-1);
  const recCell: number[] = [];
  const ids = new KeyIds(slots);
  for (let i = 0; i < ps.order.length; i++) {
    const p = ps.order[i];
    if (mask !== null && mask[cols[0][p] + 1] !== 1) continue;
    let key = cols[0][p] + 1;
    for (let k = 1; k < cols.length; k++) key = key * sizes[k] + (cols[k][p] + 1);
    const r = ids.id(key);
    if (r === recCell.length) recCell.push(ps.firstCell[p]);
    recOfPair[p] = r;
  }
  const sums = new Sums(recCell.length, ctx.dicts.procs.size, ctx.dicts.files.size);
  const { stats } = sums;
  const nf = COUNT_FIELDS.length;
  const paOfPair = new Int32Array(np);
  for (let i = 0; i < ps.order.length; i++) {
    const p = ps.order[i];
    const r = recOfPair[p];
    if (r < 0) continue;
    const d = r * STRIDE;
    for (let k = 0; k < nf; k++) stats[d + COUNT_FIELDS[k]] += ps.counts[p * nf + k];
    if (ps.first[p] < stats[d + S_FIRST]) stats[d + S_FIRST] = ps.first[p];
    if (ps.last[p] > stats[d + S_LAST]) stats[d + S_LAST] = ps.last[p];
    const pa = (paOfPair[p] = sums.proc(r, cube.pairProc[p]));
    for (let k = 0; k < CATEGORY_COUNT; k++) {
      sums.procAgg[pa * 3] += ps.counts[p * nf + OPS_AT + k];
      sums.procAgg[pa * 3 + 1] += ps.counts[p * nf + BYTES_AT + k];
    }
    sums.file(r, cube.pairFile[p]);
  }
  // the times, cell by cell in cell order
  const procAgg = sums.procAgg;
  const cellPair = cube.cellPair;
  const cst = cube.stats;
  for (let c = 0; c < cellPair.length; c++) {
    const p = cellPair[c];
    const r = recOfPair[p];
    if (r < 0) continue;
    const o = c * STRIDE + S_TIME;
    const d = r * STRIDE + S_TIME;
    const t = paOfPair[p] * 3 + 2;
    for (let k = 0; k < CATEGORY_COUNT; k++) {
      stats[d + k] += cst[o + k];
      procAgg[t] += cst[o + k];
    }
  }
  return sums.finish(recCell);
}

/** Id of a record's first-dimension value, to filter child views. */
export function firstDimIds(ctx: ViewContext, view: ViewResult, keep: (r: ViewRecord) => boolean): Set<number> {
  const d = view.dims[0];
  const wanted = new Set<string | number>();
  for (const r of view.records) if (keep(r)) wanted.add(r.key[d]!);
  const ids = new Set<number>();
  const seen = new Uint8Array(ctx.dimSlots(d));
  const col = ctx.dimColumn(d);
  for (let c = 0; c < col.length; c++) {
    const id = col[c];
    if (seen[id + 1] === 0) {
      seen[id + 1] = 1;
      if (wanted.has(ctx.dimLabel(d, id))) ids.add(id);
    }
  }
  return ids;
}

function safeDiv(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

export function deriveMetrics(
  st: Float64Array,
  o: number,
  totals: Totals,
  t0: number,
  p: { nprocs: number; nfiles: number; maxOps: number; maxBytes: number; maxTime: number },
): Metrics {
  // one object literal, its keys in the order records have always printed their metrics in (built key by key, with
  // keys made from category names, a record's metrics left ~4.6 KB of garbage)
  const rt = st[o + S_TIME + Category.READ];
  const rn = st[o + S_OPS + Category.READ];
  const rb = st[o + S_BYTES + Category.READ];
  const wt = st[o + S_TIME + Category.WRITE];
  const wn = st[o + S_OPS + Category.WRITE];
  const wb = st[o + S_BYTES + Category.WRITE];
  const mt = st[o + S_TIME + Category.METADATA];
  const mn = st[o + S_OPS + Category.METADATA];
  const mb = st[o + S_BYTES + Category.METADATA];
  const yt = st[o + S_TIME + Category.SYNC];
  const yn = st[o + S_OPS + Category.SYNC];
  const yb = st[o + S_BYTES + Category.SYNC];
  const ot = st[o + S_TIME + Category.OTHER];
  const on = st[o + S_OPS + Category.OTHER];
  const ob = st[o + S_BYTES + Category.OTHER];
  const time = rt + wt + mt + yt + ot;
  const ops = rn + wn + mn + yn + on;
  const bytes = rb + wb + mb + yb + ob;
  const dataTime = rt + wt;
  const dataBytes = rb + wb;
  const smallRead = st[o + S_SMALL_READ];
  const smallWrite = st[o + S_SMALL_WRITE];
  const random = st[o + S_RANDOM];
  const offsets = st[o + S_KNOWN_OFFSET];
  const first = st[o + S_FIRST];
  const last = st[o + S_LAST];
  const firstStart = Number.isFinite(first) ? first - t0 : 0;
  const lastEnd = Number.isFinite(last) ? last - t0 : 0;
  return {
    read_time: rt,
    read_ops: rn,
    read_bytes: rb,
    write_time: wt,
    write_ops: wn,
    write_bytes: wb,
    metadata_time: mt,
    metadata_ops: mn,
    metadata_bytes: mb,
    sync_time: yt,
    sync_ops: yn,
    sync_bytes: yb,
    other_time: ot,
    other_ops: on,
    other_bytes: ob,
    time,
    ops,
    bytes,
    iops: safeDiv(ops, time),
    data_time: dataTime,
    data_ops: rn + wn,
    data_bytes: dataBytes,
    bandwidth: safeDiv(dataBytes, dataTime),
    read_size_avg: safeDiv(rb, rn),
    write_size_avg: safeDiv(wb, wn),
    small_read_ops: smallRead,
    small_write_ops: smallWrite,
    small_read_share: safeDiv(smallRead, rn),
    small_write_share: safeDiv(smallWrite, wn),
    random_ops: random,
    offset_ops: offsets,
    random_share: safeDiv(random, offsets),
    metadata_time_share: safeDiv(mt, time),
    metadata_ops_share: safeDiv(mn, ops),
    sync_time_share: safeDiv(yt, time),
    sync_ops_share: safeDiv(yn, ops),
    nprocs: p.nprocs,
    nfiles: p.nfiles,
    top_proc_time_share: safeDiv(p.maxTime, time),
    top_proc_bytes_share: safeDiv(p.maxBytes, bytes),
    proc_ops_imbalance: p.nprocs > 0 ? safeDiv(p.maxOps, ops / p.nprocs) : 0,
    proc_bytes_imbalance: p.nprocs > 0 ? safeDiv(p.maxBytes, bytes / p.nprocs) : 0,
    proc_time_imbalance: p.nprocs > 0 ? safeDiv(p.maxTime, time / p.nprocs) : 0,
    time_share: safeDiv(time, totals.time),
    ops_share: safeDiv(ops, totals.ops),
    bytes_share: safeDiv(bytes, totals.bytes),
    first_start: firstStart,
    last_end: lastEnd,
    span: Math.max(0, lastEnd - firstStart),
  };
}

/** Chooses the default window width: the smallest of 1, 2, 5 × 10^k seconds giving at most `maxWindows` windows. */
export function defaultGranularity(span: number, base: number, maxWindows = DEFAULT_TIME_WINDOWS): number {
  const want = Math.max(span / maxWindows, base);
  let g = base;
  for (let e = Math.floor(Math.log10(base)); e < 12; e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v + 1e-12 >= want && v + 1e-12 >= base) return Number(v.toPrecision(12));
    }
  }
  return g;
}

