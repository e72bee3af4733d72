import type { ChunkSink, EventColumns, TraceDicts } from '../../formats/trace/model.js';
import { CommonValues } from './common-values.js';
import { LAYOUTS, type DerivedModule, type ModuleLayout } from './modules.js';
import { moduleOfOp, Op, opOf } from './ops.js';

/** Darshan's DARSHAN_IO_READ / DARSHAN_IO_WRITE (the last I/O direction of a record, for RW_SWITCHES). */
const IO_READ = 1;
const IO_WRITE = 2;

/** Paths Darshan does not instrument by default (darshan-config.c), and the exception to them. */
const EXCLUDED_PREFIXES = ['/etc/', '/dev/', '/usr/', '/bin/', '/boot/', '/lib/', '/opt/', '/sbin/', '/sys/', '/proc/', '/var/'];
const INCLUDED_PREFIXES = ['/var/opt/cray/dws/mounts/'];

/** darshan_clean_file_path for absolute paths: `//` → `/`, `/./` → `/` (relative paths stay as the trace has them). */
export function cleanPath(path: string): string {
  if (!path.startsWith('/')) return path;
  let p = path;
  while (p.includes('//')) p = p.replace(/\/\//g, '/');
  while (p.includes('/./')) p = p.replace(/\/\.\//g, '/');
  return p;
}

/** Whether Darshan's default path exclusions drop a record of this name. */
export function excludedPath(path: string): boolean {
  return EXCLUDED_PREFIXES.some((x) => path.startsWith(x)) && !INCLUDED_PREFIXES.some((x) => path.startsWith(x));
}

/** What the builder could not see in the events, per module: the counters it makes underivable. */
export interface UnknownInputs {
  /** Reads/writes (POSIX) or read/write calls (STDIO) with no known file offset; MPI-IO offsets are not used. */
  readonly noOffset: number;
  /** Reads/writes with no known byte count. */
  readonly noSize: number;
  /** Reads and writes in all. */
  readonly ops: number;
}

/**
 * Records of one module being accumulated: one per (file, process), row-major counters (`ints[r * NI + c]`) plus
 * the runtime state Darshan keeps beside each record (last byte read/written, last I/O direction, end of the last
 * timed read/write/metadata call, the common-value trees).
 */
export class ModuleRecords {
  readonly layout: ModuleLayout;
  readonly ni: number;
  readonly nf: number;
  n = 0;
  private cap = 0;
  ints = new Float64Array(0);
  floats = new Float64Array(0);
  file = new Int32Array(0);
  proc = new Int32Array(0);
  lastByteRead = new Float64Array(0);
  lastByteWritten = new Float64Array(0);
  lastIo = new Uint8Array(0);
  readEnd = new Float64Array(0);
  writeEnd = new Float64Array(0);
  metaEnd = new Float64Array(0);
  readonly access: (CommonValues | null)[] = [];
  readonly stride: (CommonValues | null)[] = [];
  private readonly index = new Map<number, number>();
  private lastKey = -1;
  private lastRec = -1;
  noOffset = 0;
  noSize = 0;
  ops = 0;

  constructor(readonly module: DerivedModule) {
    this.layout = LAYOUTS[module];
    this.ni = this.layout.ints.length;
    this.nf = this.layout.floats.length;
    this.grow(64);
  }

  private grow(cap: number): void {
    const g = <T extends Float64Array | Int32Array | Uint8Array>(a: T, width: number): T => {
      const b = new (a.constructor as new (n: number) => T)(cap * width);
      b.set(a);
      return b;
    };
    this.ints = g(this.ints, this.ni);
    this.floats = g(this.floats, this.nf);
    this.file = g(this.file, 1);
    this.proc = g(this.proc, 1);
    this.lastByteRead = g(this.lastByteRead, 1);
    this.lastByteWritten = g(this.lastByteWritten, 1);
    this.lastIo = g(this.lastIo, 1);
    this.readEnd = g(this.readEnd, 1);
    this.writeEnd = g(this.writeEnd, 1);
    this.metaEnd = g(this.metaEnd, 1);
    this.cap = cap;
  }

  /** Counts a read or write, noting a missing size or offset; returns whether the size is known. */
  io(size: number, offset: number): boolean {
    this.ops++;
    if (size < 0) this.noSize++;
    if (offset < 0) this.noOffset++;
    return size >= 0;
  }

  /** The record of (file, proc): its index, a new one when `create`, or −1. */
  find(file: number, proc: number, create: boolean): number {
    const key = file * 16777216 + proc;
    if (key === this.lastKey) return this.lastRec;
    let r = this.index.get(key);
    if (r === undefined) {
      if (!create) return -1;
      r = this.n++;
      if (r === this.cap) this.grow(this.cap * 2);
      this.file[r] = file;
      this.proc[r] = proc;
      this.access.push(null);
      this.stride.push(null);
      this.index.set(key, r);
    }
    this.lastKey = key;
    this.lastRec = r;
    return r;
  }
}

/** Timestamp and time-accumulator columns every module has (looked up once). */
function timeCols(m: ModuleLayout) {
  return {
    openStart: m.float('OPEN_START_TIMESTAMP'), openEnd: m.float('OPEN_END_TIMESTAMP'), closeStart: m.float('CLOSE_START_TIMESTAMP'),
    closeEnd: m.float('CLOSE_END_TIMESTAMP'), readStart: m.float('READ_START_TIMESTAMP'), readEndTs: m.float('READ_END_TIMESTAMP'),
    writeStart: m.float('WRITE_START_TIMESTAMP'), writeEndTs: m.float('WRITE_END_TIMESTAMP'), readTime: m.float('READ_TIME'),
    writeTime: m.float('WRITE_TIME'), metaTime: m.float('META_TIME'),
  };
}
type TimeCols = ReturnType<typeof timeCols>;

/** The slowest single read/write and its size (POSIX, MPI-IO). */
function maxTimeCols(m: ModuleLayout) {
  return { maxReadTime: m.float('MAX_READ_TIME'), maxWriteTime: m.float('MAX_WRITE_TIME'), maxReadTimeSize: m.int('MAX_READ_TIME_SIZE'), maxWriteTimeSize: m.int('MAX_WRITE_TIME_SIZE') };
}
type MaxTimeCols = ReturnType<typeof maxTimeCols>;

/** Column offsets of the counters the builder updates, per module. */
function posixCols(m: ModuleLayout) {
  return {
    ...timeCols(m), ...maxTimeCols(m),
    opens: m.int('OPENS'), filenos: m.int('FILENOS'), dups: m.int('DUPS'), reads: m.int('READS'), writes: m.int('WRITES'),
    seeks: m.int('SEEKS'), stats: m.int('STATS'), fsyncs: m.int('FSYNCS'), fdsyncs: m.int('FDSYNCS'),
    renameSources: m.int('RENAME_SOURCES'), bytesRead: m.int('BYTES_READ'), bytesWritten: m.int('BYTES_WRITTEN'),
    maxByteRead: m.int('MAX_BYTE_READ'), maxByteWritten: m.int('MAX_BYTE_WRITTEN'), consecReads: m.int('CONSEC_READS'),
    consecWrites: m.int('CONSEC_WRITES'), seqReads: m.int('SEQ_READS'), seqWrites: m.int('SEQ_WRITES'),
    rwSwitches: m.int('RW_SWITCHES'), sizeRead: m.int('SIZE_READ_0_100'), sizeWrite: m.int('SIZE_WRITE_0_100'),
  };
}

function mpiioCols(m: ModuleLayout) {
  return {
    ...timeCols(m), ...maxTimeCols(m),
    indepReads: m.int('INDEP_READS'), collReads: m.int('COLL_READS'), splitReads: m.int('SPLIT_READS'), nbReads: m.int('NB_READS'),
    indepWrites: m.int('INDEP_WRITES'), collWrites: m.int('COLL_WRITES'), splitWrites: m.int('SPLIT_WRITES'), nbWrites: m.int('NB_WRITES'),
    syncs: m.int('SYNCS'), views: m.int('VIEWS'), bytesRead: m.int('BYTES_READ'), bytesWritten: m.int('BYTES_WRITTEN'),
    rwSwitches: m.int('RW_SWITCHES'), sizeRead: m.int('SIZE_READ_AGG_0_100'), sizeWrite: m.int('SIZE_WRITE_AGG_0_100'),
  };
}

function stdioCols(m: ModuleLayout) {
  return {
    ...timeCols(m),
    opens: m.int('OPENS'), fdopens: m.int('FDOPENS'), reads: m.int('READS'), writes: m.int('WRITES'), seeks: m.int('SEEKS'),
    flushes: m.int('FLUSHES'), bytesRead: m.int('BYTES_READ'), bytesWritten: m.int('BYTES_WRITTEN'),
    maxByteRead: m.int('MAX_BYTE_READ'), maxByteWritten: m.int('MAX_BYTE_WRITTEN'),
  };
}

/** DARSHAN_BUCKET_INC: the size-histogram bin of a request of `v` bytes (bins include their upper bound). */
export function sizeBin(v: number): number {
  if (v < 101) return 0;
  if (v < 1025) return 1;
  if (v < 10241) return 2;
  if (v < 102401) return 3;
  if (v < 1048577) return 4;
  if (v < 4194305) return 5;
  if (v < 10485761) return 6;
  if (v < 104857601) return 7;
  if (v < 1073741825) return 8;
  return 9;
}

/** DARSHAN_TIMER_INC_NO_OVERLAP: adds the part of [t1, t2] after `last`; returns the new `last`. */
function timerInc(arr: Float64Array, i: number, t1: number, t2: number, last: number): number {
  arr[i] += t1 > last ? t2 - t1 : t2 - last;
  return t2 > last ? t2 : last;
}

/** `if (ts == 0 || ts > t) ts = t`: Darshan's first-call timestamps (0 = not set). */
function firstTs(arr: Float64Array, i: number, t: number): void {
  if (arr[i] === 0 || arr[i] > t) arr[i] = t;
}

/** A metadata call (stat, seek, rename, …): metadata time. */
function timeMeta(R: ModuleRecords, r: number, c: TimeCols, t1: number, t2: number): void {
  R.metaEnd[r] = timerInc(R.floats, r * R.nf + c.metaTime, t1, t2, R.metaEnd[r]);
}

/** A sync (fsync, fdatasync, MPI_File_sync): Darshan times it as write time. */
function timeSync(R: ModuleRecords, r: number, c: TimeCols, t1: number, t2: number): void {
  R.writeEnd[r] = timerInc(R.floats, r * R.nf + c.writeTime, t1, t2, R.writeEnd[r]);
}

/** An open (or dup, fopen, MPI_File_open): open timestamps and metadata time. */
function timeOpen(R: ModuleRecords, r: number, c: TimeCols, t1: number, t2: number): void {
  firstTs(R.floats, r * R.nf + c.openStart, t1);
  R.floats[r * R.nf + c.openEnd] = t2;
  timeMeta(R, r, c, t1, t2);
}

/** A close: close timestamps and metadata time. */
function timeClose(R: ModuleRecords, r: number, c: TimeCols, t1: number, t2: number): void {
  firstTs(R.floats, r * R.nf + c.closeStart, t1);
  R.floats[r * R.nf + c.closeEnd] = t2;
  timeMeta(R, r, c, t1, t2);
}

/** A read or write: first/last timestamps, the slowest call and its size (`m`), read or write time. */
function timeIo(R: ModuleRecords, r: number, c: TimeCols, m: MaxTimeCols | null, read: boolean, sz: number, t1: number, t2: number): void {
  const F = r * R.nf;
  const fl = R.floats;
  firstTs(fl, F + (read ? c.readStart : c.writeStart), t1);
  fl[F + (read ? c.readEndTs : c.writeEndTs)] = t2;
  if (m) {
    const mt = F + (read ? m.maxReadTime : m.maxWriteTime);
    if (fl[mt] < t2 - t1) {
      fl[mt] = t2 - t1;
      R.ints[r * R.ni + (read ? m.maxReadTimeSize : m.maxWriteTimeSize)] = sz;
    }
  }
  if (read) R.readEnd[r] = timerInc(fl, F + c.readTime, t1, t2, R.readEnd[r]);
  else R.writeEnd[r] = timerInc(fl, F + c.writeTime, t1, t2, R.writeEnd[r]);
}

/** Read/write switches (Darshan's last_io_type). */
function switches(R: ModuleRecords, r: number, col: number, read: boolean): void {
  if (R.lastIo[r] === (read ? IO_WRITE : IO_READ)) R.ints[r * R.ni + col]++;
  R.lastIo[r] = read ? IO_READ : IO_WRITE;
}

/** What a finished builder holds besides its records. */
export interface BuilderTotals {
  /** Events seen, and events that updated some record. */
  readonly events: number;
  readonly counted: number;
  /** Earliest start and latest end over every event (NaN without events). */
  readonly firstStart: number;
  readonly lastEnd: number;
  /** MPI_File_set_view calls (their metadata time depends on hints the events do not carry). */
  readonly setViews: number;
  readonly usedH5F: boolean;
  readonly usedH5D: boolean;
  /** Records dropped by Darshan's default path exclusions (/etc/, /proc/, …), distinct paths. */
  readonly excludedPaths: number;
}

/**
 * Turns a stream of trace events into Darshan POSIX, MPI-IO and STDIO counter records, one per (file, process), as
 * darshan-runtime's wrappers would have updated them call by call: operation counts, bytes, the size histogram,
 * MAX_BYTE_*, consecutive and sequential accesses (reset at open and close), strides and access sizes (Darshan's
 * common-value rules), read/write switches, the no-overlap time accumulators (fsync time counts as write time,
 * open/stat/seek/close time as metadata time), first/last timestamps and the slowest single call.
 *
 * The hot path touches only typed arrays: one map lookup per event (skipped for runs of the same file and
 * process), no per-event objects. Feed it with `sink`; then `modules` and `totals` describe what was built.
 */
export class CounterBuilder {
  readonly modules: { readonly [M in DerivedModule]: ModuleRecords } = {
    POSIX: new ModuleRecords('POSIX'),
    'MPI-IO': new ModuleRecords('MPI-IO'),
    STDIO: new ModuleRecords('STDIO'),
  };
  /** The trace's dictionaries (from the first chunk). */
  dicts: TraceDicts | null = null;
  /** Per function id: its Op + 1 (0 = not looked up yet). */
  private ops = new Uint8Array(256);
  /** Per file id: its canonical name index + 2 (0 = not looked up yet, 1 = excluded). */
  private canon = new Int32Array(256);
  /** Canonical (cleaned) record names, by index. */
  readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  private excluded = 0;
  private events = 0;
  private counted = 0;
  private firstStart = Infinity;
  private lastEnd = -Infinity;
  private setViews = 0;
  private h5f = false;
  private h5d = false;
  private readonly pc = posixCols(LAYOUTS.POSIX);
  private readonly mc = mpiioCols(LAYOUTS['MPI-IO']);
  private readonly sc = stdioCols(LAYOUTS.STDIO);

  readonly sink: ChunkSink = (chunk, dicts) => this.add(chunk, dicts);

  get totals(): BuilderTotals {
    return {
      events: this.events,
      counted: this.counted,
      firstStart: this.events ? this.firstStart : NaN,
      lastEnd: this.events ? this.lastEnd : NaN,
      setViews: this.setViews,
      usedH5F: this.h5f,
      usedH5D: this.h5d,
      excludedPaths: this.excluded,
    };
  }

  private opOf(func: number, layer: number, dicts: TraceDicts): Op {
    // The op depends on the name and the layer; a function id has one layer in every reader, so cache by id.
    if (func >= this.ops.length) {
      const b = new Uint8Array(Math.max(func + 1, this.ops.length * 2));
      b.set(this.ops);
      this.ops = b;
    }
    const c = this.ops[func];
    if (c !== 0) return (c - 1) as Op;
    const op = opOf(dicts.funcs.get(func), layer);
    this.ops[func] = op + 1;
    return op;
  }

  /** Canonical name index of a file id, or −1 when Darshan would not instrument it. */
  private fileOf(file: number, dicts: TraceDicts): number {
    if (file >= this.canon.length) {
      const b = new Int32Array(Math.max(file + 1, this.canon.length * 2));
      b.set(this.canon);
      this.canon = b;
    }
    const c = this.canon[file];
    if (c !== 0) return c - 2;
    const name = cleanPath(dicts.files.get(file));
    let idx: number;
    if (name === '' || excludedPath(name)) {
      idx = -1;
      this.excluded++;
    } else {
      const known = this.nameIndex.get(name);
      if (known !== undefined) idx = known;
      else {
        idx = this.names.length;
        this.names.push(name);
        this.nameIndex.set(name, idx);
      }
    }
    this.canon[file] = idx + 2;
    return idx;
  }

  add(c: EventColumns, dicts: TraceDicts): void {
    this.dicts = dicts;
    const n = c.length;
    this.events += n;
    const { layer, category, func, file, proc, offset, size, start, end } = c;
    void category;
    for (let i = 0; i < n; i++) {
      const t1 = start[i];
      const t2 = end[i];
      if (t1 < this.firstStart) this.firstStart = t1;
      if (t2 > this.lastEnd) this.lastEnd = t2;
      const op = this.opOf(func[i], layer[i], dicts);
      if (op === Op.NONE) continue;
      if (op === Op.H5F) {
        this.h5f = true;
        continue;
      }
      if (op === Op.H5D) {
        this.h5d = true;
        continue;
      }
      if (file[i] < 0) continue;
      const f = this.fileOf(file[i], dicts);
      if (f < 0) continue;
      const mod = moduleOfOp(op);
      if (mod === 0) this.posix(op, f, proc[i], offset[i], size[i], t1, t2);
      else if (mod === 2) this.stdio(op, f, proc[i], offset[i], size[i], t1, t2);
      else if (mod === 1) this.mpiio(op, f, proc[i], size[i], t1, t2);
    }
  }

  /** The record a call updates (created when `create`), or −1; counts the calls that update one. */
  private record(R: ModuleRecords, f: number, p: number, create: boolean): number {
    const r = R.find(f, p, create);
    if (r >= 0) this.counted++;
    return r;
  }

  private posix(op: Op, f: number, p: number, off: number, sz: number, t1: number, t2: number): void {
    const R = this.modules.POSIX;
    const c = this.pc;
    // A record is created by the calls that register a file with Darshan (open, stat) and, since DXT has no
    // opens, by reads and writes; the other calls (dup, seek, sync, close, rename) need a record that exists.
    const creates = op === Op.OPEN || op === Op.STAT || op === Op.READ || op === Op.WRITE;
    const r = this.record(R, f, p, creates);
    if (r < 0) return;
    const I = r * R.ni;
    const ints = R.ints;
    switch (op) {
      case Op.OPEN:
        R.lastByteRead[r] = 0;
        R.lastByteWritten[r] = 0;
        ints[I + c.opens]++;
        timeOpen(R, r, c, t1, t2);
        return;
      case Op.DUP:
      case Op.FILENO:
        ints[I + c.opens]++;
        ints[I + (op === Op.DUP ? c.dups : c.filenos)]++;
        timeOpen(R, r, c, t1, t2);
        return;
      case Op.STAT:
      case Op.SEEK:
      case Op.RENAME:
        ints[I + (op === Op.STAT ? c.stats : op === Op.SEEK ? c.seeks : c.renameSources)]++;
        timeMeta(R, r, c, t1, t2);
        return;
      case Op.FSYNC:
      case Op.FDATASYNC:
        ints[I + (op === Op.FSYNC ? c.fsyncs : c.fdsyncs)]++;
        timeSync(R, r, c, t1, t2);
        return;
      case Op.CLOSE:
        R.lastByteRead[r] = 0;
        R.lastByteWritten[r] = 0;
        timeClose(R, r, c, t1, t2);
        return;
      default:
        break;
    }
    const read = op === Op.READ;
    const known = R.io(sz, off);
    if (known && off >= 0) {
      // SEQ: beyond the last byte of the previous access in this direction; CONSEC: right after it.
      const last = read ? R.lastByteRead[r] : R.lastByteWritten[r];
      if (off > last) ints[I + (read ? c.seqReads : c.seqWrites)]++;
      if (off === last + 1) ints[I + (read ? c.consecReads : c.consecWrites)]++;
      const stride = off > 0 && off > last && last !== 0 ? off - last - 1 : 0;
      const end = off + sz - 1;
      if (read) R.lastByteRead[r] = end;
      else R.lastByteWritten[r] = end;
      const mb = I + (read ? c.maxByteRead : c.maxByteWritten);
      if (ints[mb] < end) ints[mb] = end;
      (R.stride[r] ??= new CommonValues()).add(stride);
    }
    ints[I + (read ? c.reads : c.writes)]++;
    if (known) {
      ints[I + (read ? c.bytesRead : c.bytesWritten)] += sz;
      ints[I + (read ? c.sizeRead : c.sizeWrite) + sizeBin(sz)]++;
      (R.access[r] ??= new CommonValues()).add(sz);
    }
    switches(R, r, c.rwSwitches, read);
    timeIo(R, r, c, c, read, sz, t1, t2);
  }

  private stdio(op: Op, f: number, p: number, off: number, sz: number, t1: number, t2: number): void {
    if (op === Op.FILENO) {
      this.posix(op, f, p, off, sz, t1, t2);
      return;
    }
    const R = this.modules.STDIO;
    const c = this.sc;
    const creates = op === Op.F_OPEN || op === Op.F_DOPEN || op === Op.F_READ || op === Op.F_WRITE;
    const r = this.record(R, f, p, creates);
    if (r < 0) return;
    const I = r * R.ni;
    const ints = R.ints;
    switch (op) {
      case Op.F_OPEN:
      case Op.F_DOPEN:
        ints[I + c.opens]++;
        if (op === Op.F_DOPEN) ints[I + c.fdopens]++;
        timeOpen(R, r, c, t1, t2);
        return;
      case Op.F_SEEK:
        ints[I + c.seeks]++;
        timeMeta(R, r, c, t1, t2);
        return;
      case Op.F_CLOSE:
        timeClose(R, r, c, t1, t2);
        return;
      case Op.F_FLUSH:
        // fflush goes through STDIO_RECORD_WRITE with 0 bytes: a flush, timed as write time.
        ints[I + c.flushes]++;
        timeIo(R, r, c, null, false, 0, t1, t2);
        return;
      default:
        break;
    }
    const read = op === Op.F_READ;
    const known = R.io(sz, off);
    if (known && off >= 0) {
      const mb = I + (read ? c.maxByteRead : c.maxByteWritten);
      if (ints[mb] < off + sz - 1) ints[mb] = off + sz - 1;
    }
    ints[I + (read ? c.reads : c.writes)]++;
    if (known) ints[I + (read ? c.bytesRead : c.bytesWritten)] += sz;
    timeIo(R, r, c, null, read, sz, t1, t2);
  }

  private mpiio(op: Op, f: number, p: number, sz: number, t1: number, t2: number): void {
    const R = this.modules['MPI-IO'];
    const c = this.mc;
    const isRead = op >= Op.M_READ_INDEP && op <= Op.M_READ_NB;
    const isWrite = op >= Op.M_WRITE_INDEP && op <= Op.M_WRITE_NB;
    const r = this.record(R, f, p, op === Op.M_OPEN || isRead || isWrite);
    if (r < 0) return;
    const I = r * R.ni;
    const ints = R.ints;
    switch (op) {
      case Op.M_OPEN:
        // INDEP_OPENS vs COLL_OPENS depends on the communicator size, which the events do not carry.
        timeOpen(R, r, c, t1, t2);
        return;
      case Op.M_CLOSE:
        timeClose(R, r, c, t1, t2);
        return;
      case Op.M_SYNC:
        ints[I + c.syncs]++;
        timeSync(R, r, c, t1, t2);
        return;
      case Op.M_VIEW:
        // Metadata time only when the call passes hints (MPI_Info), which the events do not say.
        ints[I + c.views]++;
        this.setViews++;
        return;
      default:
        break;
    }
    const known = R.io(sz, 0); // MPI-IO counters use no offsets
    const counter =
      op === Op.M_READ_INDEP ? c.indepReads : op === Op.M_READ_COLL ? c.collReads : op === Op.M_READ_SPLIT ? c.splitReads : op === Op.M_READ_NB ? c.nbReads
      : op === Op.M_WRITE_INDEP ? c.indepWrites : op === Op.M_WRITE_COLL ? c.collWrites : op === Op.M_WRITE_SPLIT ? c.splitWrites : c.nbWrites;
    if (known) {
      ints[I + (isRead ? c.sizeRead : c.sizeWrite) + sizeBin(sz)]++;
      (R.access[r] ??= new CommonValues()).add(sz);
      ints[I + (isRead ? c.bytesRead : c.bytesWritten)] += sz;
    }
    ints[I + counter]++;
    switches(R, r, c.rwSwitches, isRead);
    timeIo(R, r, c, c, isRead, sz, t1, t2);
  }
}
