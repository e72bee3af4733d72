import { existsSync } from 'node:fs';
import { Cube, type CubeData } from './cube.js';
import { TraceInputError } from './errors.js';
import { ChunkWriter, Layer, LAYER_NAMES, TraceDicts, type ChunkSink } from './model.js';
import { readDftracer } from './readers/dftracer.js';
import { readDxt } from './readers/dxt.js';
import { resolveSource, type TraceSource } from './readers/index.js';
import { readRecorderParquet } from './readers/parquet.js';
import { readRecorder } from './readers/recorder.js';
import { extractToTemp, isTarName } from './readers/tar.js';
import type { ReadResult } from './readers/types.js';
import type { ReadLimits } from '../util/limits.js';
import { buildReport, type ReportOptions, type TraceReport } from './report.js';
import { readParallel, shouldUseWorkers } from './parallel.js';

/** Layer selections accepted by `--layers`. */
export const LAYER_KEYS: Record<string, Layer> = {
  posix: Layer.POSIX,
  mpiio: Layer.MPIIO,
  'mpi-io': Layer.MPIIO,
  stdio: Layer.STDIO,
  hdf5: Layer.HDF5,
  other: Layer.OTHER,
};

export function layerMask(names: readonly string[]): number {
  let mask = 0;
  for (const n of names) {
    const k = n.trim().toLowerCase();
    if (k === 'all') return 0b11111;
    const l = LAYER_KEYS[k];
    if (l === undefined) throw new TraceInputError(`unknown layer "${n}" (known: posix, mpiio, stdio, hdf5, other, all)`);
    mask |= 1 << l;
  }
  return mask;
}

export function layerNames(mask: number): string[] {
  return LAYER_NAMES.filter((_, i) => (mask >> i) & 1);
}

/** Reads a source sequentially, sending every chunk to `sink`. */
export async function readSource(src: TraceSource, dicts: TraceDicts, sink: ChunkSink, limits: ReadLimits = {}): Promise<ReadResult> {
  const w = new ChunkWriter(dicts, sink);
  switch (src.format) {
    case 'dftracer':
      return readDftracer(src.files, w, { limits });
    case 'recorder':
      return readRecorder(src.dir, w, undefined, limits);
    case 'recorder-parquet':
      return readRecorderParquet(src.files, src.dir, w);
    case 'dxt':
      return readDxt(src.file, w, undefined, limits);
  }
}

export interface AnalyzeOptions extends Omit<ReportOptions, 'layers'> {
  /** explicit layers; default POSIX+STDIO, falling back to MPI-IO+HDF5 when the trace has no POSIX/STDIO calls */
  layers?: readonly string[];
  /** worker threads: 0/1 = none, undefined = automatic (large inputs only) */
  threads?: number;
  /** budgets of the readers (decompressed bytes, line length) */
  limits?: ReadLimits;
  /** supplies the cube of a layer mask instead of reading the trace (a sharded run: merged partial cubes, see shards.ts) */
  cubeSource?: CubeSource;
}

/** A cube with its dictionaries and what the reader reported. */
export interface BuiltCube {
  cube: CubeData;
  dicts: TraceDicts;
  read: ReadResult;
}

export type CubeSource = (layerMask: number) => Promise<BuiltCube>;

export interface Analysis {
  report: TraceReport;
  cube: CubeData;
  dicts: TraceDicts;
}

async function buildCube(src: TraceSource, mask: number, opts: AnalyzeOptions): Promise<{ cube: CubeData; dicts: TraceDicts; read: ReadResult }> {
  if (opts.cubeSource) return opts.cubeSource(mask);
  const cubeOpts = { layerMask: mask, smallBytes: opts.smallBytes, ...(opts.granularity !== undefined ? { fixedBase: opts.granularity } : {}) };
  const threads = opts.threads ?? (shouldUseWorkers(src) ? undefined : 1);
  if (threads === undefined || threads > 1) {
    const par = await readParallel(src, cubeOpts, threads, opts.limits);
    if (par) return par;
  }
  const dicts = new TraceDicts();
  const cube = new Cube(cubeOpts);
  const read = await readSource(src, dicts, (chunk) => cube.add(chunk), opts.limits);
  return { cube: cube.snapshot(), dicts, read };
}

/**
 * Reads the trace at `paths` and builds the report. A single `.tar`/`.tar.gz`/`.tgz` path is unpacked into a
 * temporary folder first (removed afterwards, also on failure) and that folder is read.
 */
export async function analyzeTrace(paths: readonly string[], opts: AnalyzeOptions): Promise<Analysis> {
  if (paths.length === 1 && isTarName(paths[0])) {
    if (!existsSync(paths[0])) throw new TraceInputError(`${paths[0]}: no such file or directory`);
    const tmp = await extractToTemp(paths[0], opts.limits);
    try {
      return await analyzeResolved(resolveSource([tmp.dir]), paths, opts);
    } finally {
      tmp.cleanup();
    }
  }
  return analyzeResolved(resolveSource(paths), paths, opts);
}

async function analyzeResolved(src: TraceSource, paths: readonly string[], opts: AnalyzeOptions): Promise<Analysis> {
  const explicit = opts.layers !== undefined;
  let mask = explicit ? layerMask(opts.layers!) : (1 << Layer.POSIX) | (1 << Layer.STDIO);
  let built = await buildCube(src, mask, opts);
  if (!explicit && built.cube.events === 0) {
    const lc = built.cube.layerCalls;
    const fallback = (lc[Layer.MPIIO] > 0 ? 1 << Layer.MPIIO : 0) | (lc[Layer.HDF5] > 0 ? 1 << Layer.HDF5 : 0);
    if (fallback !== 0) {
      mask = fallback;
      built = await buildCube(src, mask, opts);
    }
  }
  const report = buildReport(built.cube, built.dicts, built.read, paths, { ...opts, layers: layerNames(mask) });
  return { report, cube: built.cube, dicts: built.dicts };
}
