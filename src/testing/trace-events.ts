import { Cube, type CubeData } from '../trace/cube.js';
import { Category, ChunkWriter, Layer, TraceDicts } from '../formats/trace/model.js';
import type { ReadResult } from '../formats/trace/readers/types.js';

/** One hand-written call of a test trace. */
export interface HandEvent {
  readonly proc: string;
  /** Omitted: a call without a file. */
  readonly file?: string;
  readonly func: string;
  readonly cat: Category;
  readonly start: number;
  readonly end: number;
  /** −1 or omitted: unknown. */
  readonly offset?: number;
  readonly size?: number;
  readonly layer?: Layer;
  readonly host?: string;
  readonly app?: string;
}

export interface HandCubeOptions {
  readonly smallBytes?: number;
  readonly fixedBase?: number;
  readonly layerMask?: number;
  readonly maxCells?: number;
  /** Events per chunk (small values exercise chunk boundaries). */
  readonly chunk?: number;
}

/** Folds hand-written calls into a cube the way a reader and `analyzeTrace` do. */
export function handCube(events: readonly HandEvent[], opts: HandCubeOptions = {}): { cube: CubeData; dicts: TraceDicts; read: ReadResult } {
  const dicts = new TraceDicts();
  const cube = new Cube({
    layerMask: opts.layerMask ?? (1 << Layer.POSIX) | (1 << Layer.STDIO),
    smallBytes: opts.smallBytes ?? 1 << 20,
    ...(opts.fixedBase !== undefined ? { fixedBase: opts.fixedBase } : {}),
    ...(opts.maxCells !== undefined ? { maxCells: opts.maxCells } : {}),
  });
  const w = new ChunkWriter(dicts, (c) => cube.add(c), opts.chunk ?? 1 << 16);
  for (const e of events) {
    const proc = dicts.proc(e.proc, e.host ?? 'host', e.app ?? 'app');
    w.push(proc, e.file === undefined ? -1 : dicts.files.id(e.file), dicts.funcs.id(e.func), e.layer ?? Layer.POSIX, e.cat, e.offset ?? -1, e.size ?? -1, e.start, e.end);
  }
  w.flush();
  return { cube: cube.snapshot(), dicts, read: { format: 'dxt', events: w.count, sources: 1, warnings: [] } };
}

/**
 * A clock for writing calls one after the other: `calls(proc, file, n, …)` appends n calls of `seconds` each, at
 * consecutive offsets (sequential access) unless `offsets` says otherwise.
 */
export class HandTrace {
  readonly events: HandEvent[] = [];
  t = 0;

  calls(proc: string, file: string | undefined, n: number, o: { func?: string; cat?: Category; size?: number; seconds: number; offsets?: (i: number) => number }): this {
    const cat = o.cat ?? Category.WRITE;
    const func = o.func ?? (cat === Category.READ ? 'read' : cat === Category.WRITE ? 'write' : cat === Category.SYNC ? 'fsync' : 'open');
    const data = cat === Category.READ || cat === Category.WRITE;
    for (let i = 0; i < n; i++) {
      const size = data ? (o.size ?? 0) : -1;
      const offset = data ? (o.offsets ? o.offsets(i) : i * Math.max(0, size)) : -1;
      this.events.push({ proc, ...(file !== undefined ? { file } : {}), func, cat, size, offset, start: this.t, end: this.t + o.seconds });
      this.t += o.seconds;
    }
    return this;
  }
}
