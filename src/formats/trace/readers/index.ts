import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { TraceInputError } from '../errors.js';
import type { ModuleCompleteness } from '../../../contract/index.js';
import type { ChunkWriter } from '../model.js';
import { readDftracer } from './dftracer.js';
import { readDxtStreaming } from './dxt.js';
import { readRecorderParquet, sortParquetParts } from './parquet.js';
import { readRecorder } from './recorder.js';
import type { ReadResult, TraceJob } from './types.js';
import type { ReadLimits } from '../../../util/limits.js';
import type { DxtRecordTap } from '../../darshan/dxt-batches.js';

/** A resolved trace input: which reader and which files. */
export type TraceSource =
  | { format: 'dftracer'; files: string[] }
  | { format: 'recorder'; dir: string }
  | { format: 'recorder-parquet'; dir: string | null; files: string[] }
  | { format: 'dxt'; file: string };

export type TraceFormat = TraceSource['format'];

/**
 * A trace reader in the registry: `sniff` recognises its input among the paths the user gave (all existing),
 * `read` streams the events into a chunk writer. The registry tries readers in order; the first that claims the
 * paths reads them.
 */
export interface TraceReaderEntry<F extends TraceFormat = TraceFormat> {
  readonly id: F;
  /** What the reader reads (docs, `--help`). */
  readonly description: string;
  /** The folder it recognises, as the "neither … nor …" error names it ('' when it reads no folder). */
  readonly folder: string;
  /** What several paths of this kind may be (for the error when several paths fit no reader), or '' when they may not. */
  readonly combines: string;
  /** Whether event times are Unix seconds when the reader gives no `timeOrigin`. */
  readonly epochTimes: boolean;
  /** The source it reads from these paths, or null when they are not its input. Throws a TraceInputError for an input it recognises but cannot use. */
  sniff(paths: readonly string[]): Extract<TraceSource, { format: F }> | null;
  read(src: Extract<TraceSource, { format: F }>, out: ChunkWriter, limits: ReadLimits, how: ReadHow): ReadResult | Promise<ReadResult>;
  /** What the input says about the job, from what `read` (or the worker threads) returned. */
  job(read: ReadResult): TraceJob;
  /** What the reader's warnings say is missing or doubtful in the input (the report's `completeness`). */
  gaps(warnings: readonly string[]): ModuleCompleteness[];
}

const PFW = /\.pfw(\.gz)?$/;
const PARQUET = /\.parquet$/i;

const isDir = (p: string) => statSync(p).isDirectory();

function listParquet(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && PARQUET.test(e.name) && !e.name.startsWith('.'))
    .map((e) => join(dir, e.name));
}

function listPfw(dir: string, out: string[], depth = 0): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && depth < 4) listPfw(p, out, depth + 1);
    else if (e.isFile() && PFW.test(e.name)) out.push(p);
  }
}

/** Every warning of a reader means the same kind of gap in one part of the input. */
const allAre = (module: string, status: ModuleCompleteness['status']) => (warnings: readonly string[]): ModuleCompleteness[] => warnings.map((detail) => ({ module, status, detail }));

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const recorder: TraceReaderEntry<'recorder'> = {
  id: 'recorder',
  description: 'a Recorder trace folder (recorder.mt with per-rank or final-2.5 files)',
  folder: 'a Recorder trace folder (no recorder.mt)',
  combines: '',
  epochTimes: false,
  sniff: (paths) => (paths.length === 1 && isDir(paths[0]) && existsSync(join(paths[0], 'recorder.mt')) ? { format: 'recorder', dir: paths[0] } : null),
  read: (src, out, limits) => readRecorder(src.dir, out, undefined, limits),
  // the only warning: ranks whose files are missing
  gaps: allAre('Recorder', 'partial'),
  job: (read) => {
    const ranks = num(read.details?.totalRanks);
    return ranks !== undefined ? { processes: ranks } : {};
  },
};

const recorderParquet: TraceReaderEntry<'recorder-parquet'> = {
  id: 'recorder-parquet',
  description: 'a Recorder trace converted to Parquet (a folder of .parquet parts, or .parquet files)',
  folder: 'a folder of Parquet files',
  combines: 'Parquet files',
  epochTimes: false,
  sniff(paths) {
    if (paths.length === 1 && isDir(paths[0])) {
      const parts = listParquet(paths[0]);
      return parts.length > 0 ? { format: 'recorder-parquet', dir: paths[0], files: sortParquetParts(parts) } : null;
    }
    return paths.every((p) => PARQUET.test(p) && !isDir(p)) ? { format: 'recorder-parquet', dir: null, files: [...paths] } : null;
  },
  read: (src, out) => readRecorderParquet(src.files, src.dir, out),
  // row counts or id ranges that disagree with _metadata / global.json
  gaps: allAre('Parquet', 'unreliable'),
  job: () => ({}),
};

const dftracer: TraceReaderEntry<'dftracer'> = {
  id: 'dftracer',
  description: 'DFTracer .pfw / .pfw.gz files, or folders of them',
  folder: 'a folder of DFTracer .pfw/.pfw.gz files',
  combines: 'DFTracer files (.pfw, .pfw.gz) and folders of them',
  epochTimes: true,
  sniff(paths) {
    if (paths.length === 1 && isDir(paths[0])) {
      const files: string[] = [];
      listPfw(paths[0], files);
      return files.length > 0 ? { format: 'dftracer', files: files.sort() } : null;
    }
    if (!paths.every((p) => isDir(p) || PFW.test(p))) return null;
    const files: string[] = [];
    for (const p of paths) {
      if (!isDir(p)) files.push(p);
      else {
        const before = files.length;
        listPfw(p, files);
        if (files.length === before) throw new TraceInputError(`${p}: no DFTracer .pfw/.pfw.gz files in this folder`);
      }
    }
    return { format: 'dftracer', files };
  },
  // read in this thread alone: gunzip beside it when a second core is there (workers each gunzip themselves)
  read: (src, out, limits) => readDftracer(src.files, out, { limits, gunzipAside: availableParallelism() >= 2 }),
  gaps: allAre('DFTracer', 'partial'),
  job: () => ({}),
};

const dxt: TraceReaderEntry<'dxt'> = {
  id: 'dxt',
  description: 'a Darshan log with DXT (its DXT_POSIX and DXT_MPIIO segments)',
  folder: '',
  combines: '',
  epochTimes: false,
  sniff: (paths) => (paths.length === 1 && !isDir(paths[0]) ? { format: 'dxt', file: paths[0] } : null),
  read: (src, out, limits, how) => readDxtStreaming(src.file, out, limits, how.offThread !== false, undefined, how.dxtTap),
  // "DXT_POSIX: …": segments dropped (out of DXT memory) or records after a damaged one
  gaps: (warnings) =>
    warnings.map((w) => {
      const m = /^(DXT_[A-Z]+): (.*)$/.exec(w);
      return m ? { module: m[1], status: 'partial', detail: m[2] } : { module: 'DXT', status: 'partial', detail: w };
    }),
  job: (read) => {
    const d = read.details ?? {};
    const processes = num(d.nprocs);
    return { ...(str(d.jobId) !== undefined ? { jobId: str(d.jobId) } : {}), ...(str(d.exe) !== undefined ? { command: str(d.exe) } : {}), ...(str(d.uid) !== undefined ? { uid: str(d.uid) } : {}), ...(processes !== undefined ? { processes } : {}) };
  },
};

/**
 * Every trace reader, in the order they are tried: folders with a marker file first, then Parquet, DFTracer, and
 * any other single file as a Darshan log (whose reader says clearly when it is not one). Tar archives are unpacked
 * before (see `analyzeTrace`).
 */
export const TRACE_READERS: readonly TraceReaderEntry[] = [recorder, recorderParquet, dftracer, dxt] as unknown as readonly TraceReaderEntry[];

/** The registry entry of a format. */
export function traceReader<F extends TraceFormat>(format: F): TraceReaderEntry<F> {
  const entry = TRACE_READERS.find((r) => r.id === format);
  if (!entry) throw new Error(`no trace reader '${format}'`);
  return entry as unknown as TraceReaderEntry<F>;
}

function neitherNor(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `neither ${items.slice(0, -1).join(', ')}, nor ${items[items.length - 1]}`;
}

/** Decides which reader reads the paths (the first whose `sniff` claims them). */
export function resolveSource(paths: readonly string[]): TraceSource {
  if (paths.length === 0) throw new TraceInputError('no trace given');
  for (const p of paths) if (!existsSync(p)) throw new TraceInputError(`${p}: no such file or directory`);
  for (const r of TRACE_READERS) {
    const src = r.sniff(paths);
    if (src) return src;
  }
  if (paths.length === 1) throw new TraceInputError(`${paths[0]}: ${neitherNor(TRACE_READERS.map((r) => r.folder).filter(Boolean))}`);
  const kinds = TRACE_READERS.map((r) => r.combines).filter(Boolean);
  throw new TraceInputError(`these ${paths.length} paths are not one trace: only ${kinds.join(' or ')} can be read together`);
}

/** How a reader may read, besides its budgets. */
export interface ReadHow {
  /**
   * Whether it may inflate on a thread of its own beside the main one (default true; a DXT log's large regions):
   * false when the user asked for one thread.
   */
  readonly offThread?: boolean;
  /** A Darshan log's DXT reader reads the tap's log and hands it its record batches (`DxtRecordTap`). */
  readonly dxtTap?: DxtRecordTap;
}

/** Reads a resolved source sequentially into `out` with its registry entry, within the reading budgets. */
export function readSource(src: TraceSource, out: ChunkWriter, limits: ReadLimits = {}, how: ReadHow = {}): Promise<ReadResult> {
  return Promise.resolve(traceReader(src.format).read(src as never, out, limits, how));
}
