import { IntPairMap } from '../../util/id-hash.js';
import { CATEGORY_COUNT, Category, Layer, LAYER_COUNT, type EventColumns, type TraceDicts } from '../../formats/trace/model.js';
import type { IoOp, NotRecorded } from '../../contract/index.js';
import { TimeModelBuilder, type TimeLayer, type TimeModel } from '../time-model.js';
import { notStorageReason } from '../not-storage.js';
import { darshanRecordId } from '../../formats/darshan/record-id.js';
import { cleanPath } from './builder.js';
import { BusyTime, busySeconds, type BusyData } from './busy-time.js';

/**
 * The time ledger of a trace: seconds and calls per (process, file, layer, category) over every event of every
 * layer — what the time model (`../time-model.ts`) is built from for a trace, whichever layers its views analyse —
 * kept apart for calls the application made and calls made inside other traced calls (a call depth above 0: the
 * MPI-IO write inside an H5Dwrite), which the model counts only as what the outer calls hold. Memory is bounded by
 * the distinct (process, file, layer) triples, not by the events. Readers' chunks are added in any order; ledgers of
 * worker threads or shards merge.
 */

/** Statistics per row: seconds per category, then calls per category. */
const W = 2 * CATEGORY_COUNT;
/** Numbers per ledger row (shard files store rows of this width). */
export const LEDGER_WIDTH = W;

/** A ledger's rows, plain arrays (for worker transfer, shard files and merging). */
export interface LedgerData {
  /** First call's start and last call's end over every event (seconds; Infinity / −Infinity when none). */
  readonly minStart: number;
  readonly maxEnd: number;
  readonly proc: Int32Array;
  /** −1: calls without a file. */
  readonly file: Int32Array;
  readonly layer: Uint8Array;
  /** 1 for calls made inside another traced call (call depth above 0). */
  readonly nested: Uint8Array;
  /** W per row: seconds of each category, then calls of each category. */
  readonly stats: Float64Array;
  /** Per process, the wall time with an I/O call in flight (calls of the I/O layers, overlaps counted once). */
  readonly busy: BusyData;
}

export class TimeLedger {
  private readonly index = new IntPairMap();
  private proc = new Int32Array(256);
  private file = new Int32Array(256);
  private layer = new Uint8Array(256);
  private nested = new Uint8Array(256);
  private stats = new Float64Array(256 * W);
  private n = 0;
  private minStart = Infinity;
  private maxEnd = -Infinity;
  private readonly busy = new BusyTime();

  private row(proc: number, file: number, layer: number, nested: number): number {
    const key = ((file + 1) * LAYER_COUNT + layer) * 2 + nested;
    let r = this.index.get(proc, key);
    if (r >= 0) return r;
    r = this.n++;
    if (r === this.proc.length) {
      const cap = r * 2;
      const grow = <T extends Int32Array | Uint8Array | Float64Array>(a: T, w: number): T => {
        const b = new (a.constructor as new (n: number) => T)(cap * w);
        b.set(a);
        return b;
      };
      this.proc = grow(this.proc, 1);
      this.file = grow(this.file, 1);
      this.layer = grow(this.layer, 1);
      this.nested = grow(this.nested, 1);
      this.stats = grow(this.stats, W);
    }
    this.proc[r] = proc;
    this.file[r] = file;
    this.layer[r] = layer;
    this.nested[r] = nested;
    this.index.set(proc, key, r);
    return r;
  }

  /** Folds a chunk of events in. */
  add(c: EventColumns): void {
    let lastProc = -1, lastFile = -2, lastLayer = -1, lastNested = -1, r = -1;
    let busy = null as ReturnType<BusyTime['of']> | null;
    for (let i = 0; i < c.length; i++) {
      const proc = c.proc[i], file = c.file[i], layer = c.layer[i], nested = c.depth[i] > 0 ? 1 : 0;
      if (proc !== lastProc || file !== lastFile || layer !== lastLayer || nested !== lastNested) {
        if (proc !== lastProc) busy = this.busy.of(proc);
        r = this.row(proc, file, layer, nested);
        lastProc = proc;
        lastFile = file;
        lastLayer = layer;
        lastNested = nested;
      }
      const t1 = c.start[i], t2 = c.end[i];
      if (t1 < this.minStart) this.minStart = t1;
      if (t2 > this.maxEnd) this.maxEnd = t2;
      if (IO_LAYER[layer]) busy!.add(t1, t2);
      const d = t2 - t1;
      const o = r * W + c.category[i];
      if (d > 0 && Number.isFinite(d)) this.stats[o] += d;
      this.stats[o + CATEGORY_COUNT]++;
    }
  }

  /** Adds rows of another ledger (a worker's or a shard's), its process and file ids mapped into this one's. */
  merge(data: LedgerData, procMap: Int32Array, fileMap: Int32Array): void {
    if (data.minStart < this.minStart) this.minStart = data.minStart;
    if (data.maxEnd > this.maxEnd) this.maxEnd = data.maxEnd;
    for (let k = 0; k < data.proc.length; k++) {
      const r = this.row(procMap[data.proc[k]], data.file[k] < 0 ? -1 : fileMap[data.file[k]], data.layer[k], data.nested[k]);
      for (let j = 0; j < W; j++) this.stats[r * W + j] += data.stats[k * W + j];
    }
    this.busy.merge(data.busy, procMap);
  }

  snapshot(): LedgerData {
    return { minStart: this.minStart, maxEnd: this.maxEnd, proc: this.proc.slice(0, this.n), file: this.file.slice(0, this.n), layer: this.layer.slice(0, this.n), nested: this.nested.slice(0, this.n), stats: this.stats.slice(0, this.n * W), busy: this.busy.snapshot() };
  }
}

/** Ledgers of parts (each with its id maps) merged into one. */
export function mergeLedgers(parts: readonly { data: LedgerData; procMap: Int32Array; fileMap: Int32Array }[]): LedgerData {
  const l = new TimeLedger();
  for (const p of parts) l.merge(p.data, p.procMap, p.fileMap);
  return l.snapshot();
}

/** 1 for the layers whose calls are I/O (all but `other`). */
const IO_LAYER: Uint8Array = (() => {
  const out = new Uint8Array(LAYER_COUNT).fill(1);
  out[Layer.OTHER] = 0;
  return out;
})();

/** Trace layers as the time model names them (calls of the `other` layer — MPI communication, framework events — are not I/O). */
const LAYER_OF: readonly (TimeLayer | null)[] = (() => {
  const out: (TimeLayer | null)[] = new Array(LAYER_COUNT).fill(null);
  out[Layer.POSIX] = 'POSIX';
  out[Layer.MPIIO] = 'MPI-IO';
  out[Layer.STDIO] = 'STDIO';
  out[Layer.HDF5] = 'HDF5';
  return out;
})();
const OP_OF: readonly IoOp[] = (() => {
  const out: IoOp[] = new Array(CATEGORY_COUNT).fill('other');
  out[Category.READ] = 'read';
  out[Category.WRITE] = 'write';
  out[Category.METADATA] = 'metadata';
  out[Category.SYNC] = 'sync';
  out[Category.OTHER] = 'other';
  return out;
})();

/** How a ledger's processes and files become the model's ranks and file keys. */
export interface LedgerModelOptions {
  readonly runTime: number;
  readonly processes: number;
  /** The rank of a process id. */
  readonly rankOf: (proc: number) => number;
  /** The file key of a file id (−1: calls without a file). */
  readonly fileKey: (file: number) => bigint;
  /** The name of a file id (−1: calls without a file). */
  readonly fileName: (file: number) => string;
  /** The label of each process id (its rank number, or `host:pid`). */
  readonly procLabels: readonly string[];
  readonly notRecorded?: readonly NotRecorded[];
  /** The file-system type a file lives on, when the trace knows its mounts (DXT logs do). */
  readonly fsTypeOf?: (name: string) => string | null;
}

/** Every process's calls count per rank (a trace knows each process's time exactly: nothing is shared). */
export function timeModelFromLedger(data: LedgerData, opts: LedgerModelOptions): TimeModel {
  const b = new TimeModelBuilder();
  const names = new Map<bigint, string>();
  const seconds: Partial<Record<IoOp, number>> = {};
  for (let k = 0; k < data.proc.length; k++) {
    const layer = LAYER_OF[data.layer[k]];
    if (!layer) continue;
    for (const op of OP_OF) seconds[op] = 0;
    for (let c = 0; c < CATEGORY_COUNT; c++) seconds[OP_OF[c]]! += data.stats[k * W + c];
    // A call made inside another traced call is part of that call's time: it explains it, it is not added again.
    if (data.nested[k]) {
      b.addNested(opts.rankOf(data.proc[k]), layer, seconds);
      continue;
    }
    const key = opts.fileKey(data.file[k]);
    if (!names.has(key)) names.set(key, opts.fileName(data.file[k]));
    b.add(key, opts.rankOf(data.proc[k]), layer, seconds);
  }
  const rankLabels: string[] = [];
  opts.procLabels.forEach((label, p) => {
    const r = opts.rankOf(p);
    if (r >= 0 && rankLabels[r] === undefined) rankLabels[r] = label;
  });
  for (let r = 0; r < rankLabels.length; r++) rankLabels[r] ??= String(r);
  const rankWall = new Map<number, number>();
  for (const [p, t] of busySeconds(data.busy)) {
    const r = opts.rankOf(p);
    if (r >= 0) rankWall.set(r, (rankWall.get(r) ?? 0) + t);
  }
  const apart = (key: bigint) => {
    const name = names.get(key);
    return name === undefined || name === NO_FILE ? null : notStorageReason(name, opts.fsTypeOf?.(name) ?? null);
  };
  return b.build({ runTime: opts.runTime, processes: opts.processes, notRecorded: opts.notRecorded ?? [], source: 'trace', fileName: (key) => names.get(key) ?? key.toString(), rankLabels, rankWall, apart });
}

/** What a DXT trace cannot time: it records only reads and writes. */
export function dxtNotRecorded(layers: readonly string[]): NotRecorded[] {
  return layers.flatMap((layer) => (['metadata', 'sync'] as const).map((op) => ({ layer, op, reason: 'DXT traces only read and write calls' })));
}

/** The name the model gives calls without a file (sync(), MPI calls on no file …). */
export const NO_FILE = '(no file)';

/** The file name of a ledger file id. */
export function ledgerFileName(dicts: TraceDicts, file: number): string {
  return file < 0 ? NO_FILE : dicts.files.get(file);
}

/** Process labels → ranks: numeric labels are ranks; otherwise (host:pid) processes are numbered in label order. */
export function ranksOfProcs(labels: readonly string[]): { rank: Int32Array; numeric: boolean } {
  const rank = new Int32Array(labels.length);
  if (labels.every((l) => /^\d+$/.test(l))) {
    labels.forEach((l, i) => (rank[i] = Number(l)));
    return { rank, numeric: true };
  }
  const order = labels.map((_, i) => i).sort((a, b) => labels[a].localeCompare(labels[b], 'en', { numeric: true }));
  order.forEach((p, k) => (rank[p] = k));
  return { rank, numeric: false };
}

/** The processes a trace's sums run over: the largest rank + 1 when processes are labelled by rank, else their number. */
export function traceProcesses(labels: readonly string[]): number {
  const { rank, numeric } = ranksOfProcs(labels);
  let max = -1;
  for (const r of rank) if (r > max) max = r;
  return numeric ? max + 1 : labels.length;
}

/** What a trace's time model needs besides its ledger (a DXT log brings its job's run time, ranks and record ids). */
export interface TraceModelOptions {
  /** Run time, seconds (default: the span of the trace, first call to last). */
  readonly runSeconds?: number;
  /** Ranks of the job (default: `traceProcesses`). */
  readonly nprocs?: number;
  /** The record id of a (cleaned) file name (default: Darshan's hash of it). */
  readonly recordId?: (name: string) => bigint | undefined;
  readonly notRecorded?: readonly NotRecorded[];
}

/**
 * The time model of a trace: the one function both `iolens trace` and `iolens report` on a trace build it with, so
 * that the same trace shows the same I/O time in both. Files are keyed by the record ids its counters get.
 */
export function traceTimeModel(data: LedgerData, dicts: TraceDicts, opts: TraceModelOptions = {}): TimeModel {
  const labels = dicts.procs.values;
  const procRank = ranksOfProcs(labels).rank;
  const span = Number.isFinite(data.maxEnd - data.minStart) ? Math.max(0, data.maxEnd - data.minStart) : 0;
  const keyOf = (f: number) => {
    if (f < 0) return 0n;
    const n = cleanPath(dicts.files.get(f));
    return opts.recordId?.(n) ?? darshanRecordId(n);
  };
  return timeModelFromLedger(data, {
    runTime: opts.runSeconds ?? span,
    processes: opts.nprocs ?? traceProcesses(labels),
    rankOf: (p) => procRank[p],
    fileKey: keyOf,
    fileName: (f) => ledgerFileName(dicts, f),
    procLabels: labels,
    notRecorded: opts.notRecorded ?? [],
  });
}
