/**
 * The columnar event model shared by every trace reader (DXT, Recorder, DFTracer).
 *
 * An event is one traced call. Events travel in chunks of typed-array columns; every string column (process, host,
 * app, file, function) is dictionary-encoded: the column holds an integer id into a `Dict` owned by the trace.
 */

/** Software layer that issued a call. Values are stable: they are stored in `Uint8Array` columns. */
export const enum Layer {
  POSIX = 0,
  MPIIO = 1,
  STDIO = 2,
  HDF5 = 3,
  OTHER = 4,
}
export const LAYER_NAMES = ['POSIX', 'MPI-IO', 'STDIO', 'HDF5', 'other'] as const;
export type LayerName = (typeof LAYER_NAMES)[number];
export const LAYER_COUNT = 5;

/** What a call does to the storage system. Values are stable (typed-array storage and aggregate offsets). */
export const enum Category {
  READ = 0,
  WRITE = 1,
  METADATA = 2,
  SYNC = 3,
  OTHER = 4,
}
export const CATEGORY_NAMES = ['read', 'write', 'metadata', 'sync', 'other'] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];
export const CATEGORY_COUNT = 5;

/** A string dictionary: value ↔ dense id. */
export class Dict {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  id(value: string): number {
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.index.set(value, id);
    }
    return id;
  }

  get(id: number): string {
    return this.values[id];
  }

  get size(): number {
    return this.values.length;
  }
}

/** The dictionaries of one trace. Process ids also carry their host and app (first seen) in `procHost`/`procApp`. */
export class TraceDicts {
  readonly procs = new Dict();
  readonly hosts = new Dict();
  readonly apps = new Dict();
  readonly files = new Dict();
  readonly funcs = new Dict();
  /** host id per process id. */
  readonly procHost: number[] = [];
  /** app id per process id. */
  readonly procApp: number[] = [];

  /** Registers a process (by its label, e.g. a rank number or `host:pid`) with its host and app; returns its id. */
  proc(label: string, host: string, app: string): number {
    const id = this.procs.id(label);
    if (id === this.procHost.length) {
      this.procHost.push(this.hosts.id(host));
      this.procApp.push(this.apps.id(app));
    }
    return id;
  }
}

/** Number of events per chunk by default (bounded memory while streaming). */
export const CHUNK_EVENTS = 1 << 16;

/**
 * A chunk of events in columnar form. `length` rows are valid; columns may be longer. Unknown offset/size are -1;
 * an event without a file has file = -1. Times are seconds (readers document their origin).
 */
export interface EventColumns {
  length: number;
  proc: Int32Array;
  host: Int32Array;
  app: Int32Array;
  file: Int32Array;
  func: Int32Array;
  layer: Uint8Array;
  category: Uint8Array;
  offset: Float64Array;
  size: Float64Array;
  start: Float64Array;
  end: Float64Array;
  /**
   * Call depth: 0 for a call the application made, more for a call made inside another traced call (the MPI-IO
   * write under an H5Dwrite, its pwrite under that). Readers that do not know it (DXT, DFTracer) leave 0.
   */
  depth: Uint8Array;
}

export function allocColumns(capacity: number): EventColumns {
  return {
    length: 0,
    proc: new Int32Array(capacity),
    host: new Int32Array(capacity),
    app: new Int32Array(capacity),
    file: new Int32Array(capacity),
    func: new Int32Array(capacity),
    layer: new Uint8Array(capacity),
    category: new Uint8Array(capacity),
    offset: new Float64Array(capacity),
    size: new Float64Array(capacity),
    start: new Float64Array(capacity),
    end: new Float64Array(capacity),
    depth: new Uint8Array(capacity),
  };
}

/** Receives chunks from a reader. The chunk's arrays are reused after the call returns: copy what you keep. */
export type ChunkSink = (chunk: EventColumns, dicts: TraceDicts) => void;

/**
 * Accumulates events one at a time into a reusable chunk and hands full chunks to a sink. Readers use it so that they
 * never hold more than one chunk of events.
 */
export class ChunkWriter {
  private cols: EventColumns;
  constructor(
    readonly dicts: TraceDicts,
    private readonly sink: ChunkSink,
    private readonly capacity = CHUNK_EVENTS,
  ) {
    this.cols = allocColumns(capacity);
  }

  /** Total events written so far (including the ones still buffered). */
  count = 0;

  push(
    proc: number,
    file: number,
    func: number,
    layer: Layer,
    category: Category,
    offset: number,
    size: number,
    start: number,
    end: number,
    depth = 0,
  ): void {
    const c = this.cols;
    const i = c.length;
    c.proc[i] = proc;
    c.host[i] = this.dicts.procHost[proc];
    c.app[i] = this.dicts.procApp[proc];
    c.file[i] = file;
    c.func[i] = func;
    c.layer[i] = layer;
    c.category[i] = category;
    c.offset[i] = offset;
    c.size[i] = size;
    c.start[i] = start;
    c.end[i] = end;
    c.depth[i] = depth > 255 ? 255 : depth;
    c.length = i + 1;
    this.count++;
    if (c.length === this.capacity) this.flush();
  }

  flush(): void {
    if (this.cols.length === 0) return;
    this.sink(this.cols, this.dicts);
    this.cols.length = 0;
  }
}

/** A whole trace held in memory as one columnar table (for small traces, tests and tools). */
export interface EventTable extends EventColumns {
  dicts: TraceDicts;
}

/** A sink that concatenates chunks into one growing table. */
export class TableCollector {
  private cols = allocColumns(1024);
  dicts: TraceDicts | undefined;

  readonly sink: ChunkSink = (chunk, dicts) => {
    this.dicts = dicts;
    const need = this.cols.length + chunk.length;
    if (need > this.cols.proc.length) this.grow(Math.max(need, this.cols.proc.length * 2));
    const o = this.cols.length;
    const n = chunk.length;
    this.cols.proc.set(chunk.proc.subarray(0, n), o);
    this.cols.host.set(chunk.host.subarray(0, n), o);
    this.cols.app.set(chunk.app.subarray(0, n), o);
    this.cols.file.set(chunk.file.subarray(0, n), o);
    this.cols.func.set(chunk.func.subarray(0, n), o);
    this.cols.layer.set(chunk.layer.subarray(0, n), o);
    this.cols.category.set(chunk.category.subarray(0, n), o);
    this.cols.offset.set(chunk.offset.subarray(0, n), o);
    this.cols.size.set(chunk.size.subarray(0, n), o);
    this.cols.start.set(chunk.start.subarray(0, n), o);
    this.cols.end.set(chunk.end.subarray(0, n), o);
    this.cols.depth.set(chunk.depth.subarray(0, n), o);
    this.cols.length = need;
  };

  private grow(capacity: number): void {
    const next = allocColumns(capacity);
    const n = this.cols.length;
    next.proc.set(this.cols.proc.subarray(0, n));
    next.host.set(this.cols.host.subarray(0, n));
    next.app.set(this.cols.app.subarray(0, n));
    next.file.set(this.cols.file.subarray(0, n));
    next.func.set(this.cols.func.subarray(0, n));
    next.layer.set(this.cols.layer.subarray(0, n));
    next.category.set(this.cols.category.subarray(0, n));
    next.offset.set(this.cols.offset.subarray(0, n));
    next.size.set(this.cols.size.subarray(0, n));
    next.start.set(this.cols.start.subarray(0, n));
    next.end.set(this.cols.end.subarray(0, n));
    next.depth.set(this.cols.depth.subarray(0, n));
    next.length = n;
    this.cols = next;
  }

  table(dicts: TraceDicts): EventTable {
    return { ...this.cols, dicts: this.dicts ?? dicts };
  }
}
