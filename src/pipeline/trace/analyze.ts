import { existsSync } from 'node:fs';
import { defaultConfig, type ReportConfig } from '../../config/defaults.js';
import { UsageError, type Report } from '../../contract/index.js';
import { TRACE_RUN_CHECKS } from '../../checks/trace/registry.js';
import type { AnyCheck } from '../../checks/types.js';
import { DarshanLog } from '../../formats/darshan/index.js';
import type { DxtRecordTap } from '../../formats/darshan/dxt-batches.js';
import { FactContext } from '../../facts/fact-context.js';
import { DxtFacts, seedDxtFacts } from '../../facts/dxt-stream.js';
import { FactSource } from '../../facts/source.js';
import { Cube, type CubeData } from '../../trace/cube.js';
import { TraceInputError } from '../../formats/trace/errors.js';
import { ChunkWriter, Layer, LAYER_NAMES, TraceDicts } from '../../formats/trace/model.js';
import { readSource, resolveSource, traceReader, type TraceSource } from '../../formats/trace/readers/index.js';
import { extractToTemp, isTarName } from '../../formats/trace/readers/tar.js';
import type { ReadResult } from '../../formats/trace/readers/types.js';
import type { ReadLimits } from '../../util/limits.js';
import { buildTraceReport } from '../../report/trace-report.js';
import { readParallel, shouldUseWorkers } from './parallel.js';
import { METRICS, type MetricId } from '../../trace/score.js';
import { DEFAULT_VIEWS, parseView } from '../../trace/view-catalogue.js';

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

/** Options of `analyzeTrace`; every field has a default. */
export interface AnalyzeOptions {
  /** Views in report order (default: the catalogue's default views). */
  readonly views?: readonly string[];
  /** Severity metric (default `iops_slope`) and its threshold (default: the metric's). */
  readonly metric?: MetricId;
  readonly threshold?: number;
  /** Time-window width in seconds. */
  readonly granularity?: number;
  /** Explicit layers; default POSIX+STDIO, falling back to MPI-IO+HDF5 when the trace has no POSIX/STDIO calls. */
  readonly layers?: readonly string[];
  /** Flagged records listed per view (default 10; 0 = all). */
  readonly top?: number;
  /** Knobs (small_bytes, trace_*) and per-check overrides (default: the defaults). */
  readonly config?: ReportConfig;
  /** Run the built-in trace checks T01… (default true). */
  readonly builtinChecks?: boolean;
  /** Checks compiled from user rule files, run after the built-in ones. */
  readonly userChecks?: readonly AnyCheck[];
  /** Worker threads: 0/1 = none, undefined = automatic (large inputs only). */
  readonly threads?: number;
  /** Budgets of the readers (decompressed bytes, line length). */
  readonly limits?: ReadLimits;
  readonly toolVersion?: string;
  /** Called as events are read (single-threaded reading), with the count so far: for progress displays. */
  readonly onProgress?: (events: number) => void;
  /** Supplies the cube of a layer mask instead of reading the trace (a sharded run: merged partial cubes, shards.ts). */
  readonly cubeSource?: CubeSource;
}

/** A cube with its dictionaries and what the reader reported. */
export interface BuiltCube {
  cube: CubeData;
  dicts: TraceDicts;
  read: ReadResult;
}

export type CubeSource = (layerMask: number) => Promise<BuiltCube>;

export interface Analysis {
  report: Report;
  cube: CubeData;
  dicts: TraceDicts;
}

async function buildCube(src: TraceSource, mask: number, smallBytes: number, opts: AnalyzeOptions, dxtTap?: DxtRecordTap): Promise<{ cube: CubeData; dicts: TraceDicts; read: ReadResult }> {
  if (opts.cubeSource) return opts.cubeSource(mask);
  const cubeOpts = { layerMask: mask, smallBytes, ...(opts.granularity !== undefined ? { fixedBase: opts.granularity } : {}) };
  const threads = opts.threads ?? (shouldUseWorkers(src) ? undefined : 1);
  if (threads === undefined || threads > 1) {
    const par = await readParallel(src, cubeOpts, threads, opts.limits);
    if (par) return par;
  }
  const dicts = new TraceDicts();
  const cube = new Cube(cubeOpts);
  let events = 0;
  const onProgress = opts.onProgress;
  const read = await readSource(
    src,
    new ChunkWriter(dicts, (chunk) => {
      cube.add(chunk);
      if (onProgress) onProgress((events += chunk.length));
    }),
    opts.limits,
    { offThread: opts.threads === undefined || opts.threads > 1, ...(dxtTap ? { dxtTap } : {}) },
  );
  return { cube: cube.snapshot(), dicts, read };
}

/**
 * Reads the trace at `paths` and builds its report (the contract's `Report`, with the `trace` section). A single
 * `.tar`/`.tar.gz`/`.tgz` path is unpacked into a temporary folder first (removed afterwards, also on failure) and
 * that folder is read.
 */
export async function analyzeTrace(paths: readonly string[], opts: AnalyzeOptions = {}): Promise<Analysis> {
  const metric = opts.metric ?? 'iops_slope';
  if (!(metric in METRICS)) throw new UsageError(`unknown metric "${metric}" (known: ${Object.keys(METRICS).join(', ')})`);
  if (opts.threshold !== undefined) {
    const bad = METRICS[metric].invalidThreshold(opts.threshold);
    if (bad) throw new UsageError(bad);
  }
  for (const v of opts.views ?? []) {
    try {
      parseView(v);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (paths.length === 1 && isTarName(paths[0])) {
    if (!existsSync(paths[0])) throw new TraceInputError(`${paths[0]}: no such file or directory`);
    const tmp = await extractToTemp(paths[0], opts.limits);
    try {
      return await analyzeResolved(resolveSource([tmp.dir]), paths, metric, opts);
    } finally {
      tmp.cleanup();
    }
  }
  return analyzeResolved(resolveSource(paths), paths, metric, opts);
}

async function analyzeResolved(src: TraceSource, paths: readonly string[], metric: MetricId, opts: AnalyzeOptions): Promise<Analysis> {
  const config = opts.config ?? defaultConfig();
  const smallBytes = config.knobs.small_bytes;
  const explicit = opts.layers !== undefined;
  let mask = explicit ? layerMask(opts.layers!) : (1 << Layer.POSIX) | (1 << Layer.STDIO);
  // A Darshan log's DXT comes with the log's counters: the job, its time model and completeness are the log's, as
  // `iolens report` shows them (DXT alone sees no metadata or sync call). The reader reads that log, and the facts
  // that read DXT segments are summed from its batches as they pass (`DxtFacts`): the region is inflated once, and
  // never held decoded (~70 bytes a segment).
  let dxtFacts: DxtFacts | undefined;
  if (src.format === 'dxt') {
    let log: DarshanLog | null = null;
    try {
      log = DarshanLog.openFile(src.file, opts.limits?.maxInflate !== undefined ? { maxInflate: opts.limits.maxInflate } : {});
    } catch {
      // not a log the reader can read: its reading says why, naming the file
    }
    if (log) {
      const source = new FactSource(log);
      dxtFacts = new DxtFacts(FactContext.forLog(source), source, log);
    }
  }
  let built = await buildCube(src, mask, smallBytes, opts, dxtFacts);
  const notes: string[] = [];
  if (!explicit && built.cube.events === 0) {
    const lc = built.cube.layerCalls;
    const fallback = (lc[Layer.MPIIO] > 0 ? 1 << Layer.MPIIO : 0) | (lc[Layer.HDF5] > 0 ? 1 << Layer.HDF5 : 0);
    if (fallback !== 0) {
      mask = fallback;
      built = await buildCube(src, mask, smallBytes, opts);
      notes.push(`the trace has no POSIX or STDIO calls: the views use its ${layerNames(mask).join(' and ')} calls`);
    }
  }
  const builtin = opts.builtinChecks !== false;
  const reader = traceReader(src.format);
  let facts: FactContext | undefined;
  if (dxtFacts) {
    // the reader streamed every DXT region through it; else (worker threads, or a region read whole) a pass of their own
    if (dxtFacts.complete()) dxtFacts.seed();
    else await seedDxtFacts(dxtFacts.facts, dxtFacts.src, dxtFacts.log);
    facts = dxtFacts.facts;
  }
  const report = buildTraceReport(built.cube, built.dicts, built.read, paths, {
    views: opts.views ?? DEFAULT_VIEWS,
    metric,
    ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
    ...(opts.granularity !== undefined ? { granularity: opts.granularity } : {}),
    top: opts.top ?? 10,
    layers: layerNames(mask),
    config,
    checks: [...(builtin ? TRACE_RUN_CHECKS : []), ...(opts.userChecks ?? [])],
    ...(builtin ? {} : { skipped: { checks: TRACE_RUN_CHECKS, reason: 'built-in trace checks turned off' } }),
    epochTimes: reader.epochTimes,
    job: reader.job(built.read),
    gaps: reader.gaps(built.read.warnings),
    notes,
    ...(facts ? { facts } : {}),
    ...(opts.toolVersion !== undefined ? { toolVersion: opts.toolVersion } : {}),
  });
  return { report, cube: built.cube, dicts: built.dicts };
}
