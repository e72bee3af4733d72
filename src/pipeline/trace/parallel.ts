import { distFile } from '../../util/package-root.js';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { mergeCubes, type CubeData, type CubeOptions } from '../../trace/cube.js';
import { runTasks } from '../../util/tasks.js';
import type { ReadLimits } from '../../util/limits.js';
import { TraceDicts } from '../../formats/trace/model.js';
import { missingRanksWarning, recorderRanks } from '../../formats/trace/readers/recorder.js';
import type { TraceSource } from '../../formats/trace/readers/index.js';
import type { ReadResult } from '../../formats/trace/readers/types.js';

/** Inputs at least this large (bytes on disk) are split across worker threads. */
export const PARALLEL_MIN_BYTES = 48 * 1024 * 1024;

/** A unit of work sent to a worker. */
export type WorkUnit = { kind: 'dftracer'; file: string } | { kind: 'recorder'; dir: string; rank: number };

export interface WorkerRequest {
  units: WorkUnit[];
  cube: CubeOptions;
  limits?: ReadLimits;
}

/** The dictionaries of a partial cube in serialisable form (worker replies, partial-cube files). */
export interface DictData {
  procs: string[];
  hosts: string[];
  apps: string[];
  files: string[];
  funcs: string[];
  procHost: number[];
  procApp: number[];
}

export interface WorkerReply {
  ok: true;
  cube: CubeData;
  dict: DictData;
  read: ReadResult;
}

export function dictData(d: TraceDicts): DictData {
  return { procs: d.procs.values, hosts: d.hosts.values, apps: d.apps.values, files: d.files.values, funcs: d.funcs.values, procHost: d.procHost, procApp: d.procApp };
}

/**
 * Merges partial cubes, each built with its own dictionaries, into one cube over merged dictionaries. Dictionary
 * entries get their ids in part order, so parts holding consecutive slices of a trace give the ids one sequential
 * read would.
 */
export function mergeParts(parts: readonly { cube: CubeData; dict: DictData }[]): { cube: CubeData; dicts: TraceDicts } {
  const dicts = new TraceDicts();
  const maps = parts.map((r) => {
    const procMap = Int32Array.from(r.dict.procs, (label, i) => dicts.proc(label, r.dict.hosts[r.dict.procHost[i]], r.dict.apps[r.dict.procApp[i]]));
    const fileMap = Int32Array.from(r.dict.files, (f) => dicts.files.id(f));
    const funcMap = Int32Array.from(r.dict.funcs, (f) => dicts.funcs.id(f));
    return { data: r.cube, procMap, fileMap, funcMap };
  });
  return { cube: mergeCubes(maps), dicts };
}

function size(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

function units(src: TraceSource): { units: WorkUnit[]; weights: number[]; warnings: string[]; meta?: Record<string, unknown> } | null {
  if (src.format === 'dftracer') {
    if (src.files.length < 2) return null;
    return { units: src.files.map((file) => ({ kind: 'dftracer', file })), weights: src.files.map(size), warnings: [] };
  }
  if (src.format === 'recorder') {
    const { meta, present, missing } = recorderRanks(src.dir);
    if (present.length < 2 || meta.layout !== 'per-rank') return null;
    const warnings = missing.length > 0 ? [missingRanksWarning(present.length, meta.totalRanks, missing)] : [];
    return {
      units: present.map((rank) => ({ kind: 'recorder', dir: src.dir, rank })),
      weights: present.map((r) => size(join(src.dir, `${r}.ts`))),
      warnings,
      meta: { version: meta.version, layout: meta.layout, totalRanks: meta.totalRanks, presentRanks: present.length, missingRanks: missing },
    };
  }
  return null;
}

/**
 * Whether worker threads pay off for an input of `parts` files (DFTracer) or per-rank files (Recorder) holding `bytes`
 * on disk, on `cores` cores. DFTracer: from two cores and 8 MiB (a JSON line costs ~1 µs to read: two workers read
 * 5 M events in 2.8 s against 3.2 s on one thread, BENCHMARKS.md). Recorder: from three cores and 12 MiB (an event
 * costs ~0.1 µs to decode; on two cores two workers, each starting cold and merged afterwards, took longer than one
 * thread at every size measured: 5 M events 0.84 against 0.64 s, 30 M 4.8 against 3.2 s).
 */
export function workersPayOff(format: 'dftracer' | 'recorder', parts: number, bytes: number, cores: number): boolean {
  if (parts < 2) return false;
  if (format === 'dftracer') return cores >= 2 && bytes >= PARALLEL_MIN_BYTES / 6;
  return cores >= 3 && bytes >= PARALLEL_MIN_BYTES / 4;
}

/** True when the input is large enough for worker threads to pay off on this machine (`workersPayOff`). */
export function shouldUseWorkers(src: TraceSource, cores = availableParallelism()): boolean {
  if (src.format === 'dftracer') return workersPayOff('dftracer', src.files.length, src.files.reduce((a, f) => a + size(f), 0), cores);
  if (src.format === 'recorder') {
    try {
      const { present, meta } = recorderRanks(src.dir);
      return meta.layout === 'per-rank' && workersPayOff('recorder', present.length, present.reduce((a, r) => a + size(join(src.dir, `${r}.ts`)), 0), cores);
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Reads the units of `src` on worker threads (largest first, greedy balance), each building its own cube with its
 * own dictionaries; the partial cubes are merged here. Returns null when the source cannot be split.
 */
export async function readParallel(
  src: TraceSource,
  cubeOpts: CubeOptions,
  threads?: number,
  limits?: ReadLimits,
): Promise<{ cube: CubeData; dicts: TraceDicts; read: ReadResult } | null> {
  const plan = units(src);
  if (!plan) return null;
  const n = Math.max(1, Math.min(threads ?? availableParallelism(), plan.units.length));
  const bins: WorkUnit[][] = Array.from({ length: n }, () => []);
  const load = new Array<number>(n).fill(0);
  const order = plan.units.map((u, i) => i).sort((a, b) => plan.weights[b] - plan.weights[a]);
  for (const i of order) {
    let k = 0;
    for (let j = 1; j < n; j++) if (load[j] < load[k]) k = j;
    bins[k].push(plan.units[i]);
    load[k] += plan.weights[i] || 1;
  }
  // keep each worker's units in input order (rank / file order)
  for (const b of bins) b.sort((x, y) => (x.kind === 'recorder' && y.kind === 'recorder' ? x.rank - y.rank : x.kind === 'dftracer' && y.kind === 'dftracer' ? (x.file < y.file ? -1 : 1) : 0));
  const replies: WorkerReply[] = new Array(bins.length);
  await runTasks<WorkerRequest, WorkerReply>({
    script: distFile('pipeline/trace/worker.js'),
    threads: bins.length,
    tasks: bins.map((b) => ({ units: b, cube: cubeOpts, ...(limits ? { limits } : {}) })),
    onResult: (reply, _task, i) => {
      replies[i] = reply;
    },
  });
  const { cube, dicts } = mergeParts(replies);
  const first = replies[0].read;
  const read: ReadResult = {
    format: first.format,
    events: replies.reduce((a, r) => a + r.read.events, 0),
    sources: replies.reduce((a, r) => a + r.read.sources, 0),
    warnings: [...plan.warnings, ...replies.flatMap((r) => r.read.warnings)],
    ...(first.timeOrigin !== undefined ? { timeOrigin: first.timeOrigin } : {}),
    details: mergeDetails(src, plan.meta, replies.map((r) => r.read.details ?? {})),
  };
  return { cube, dicts, read };
}

function mergeDetails(src: TraceSource, meta: Record<string, unknown> | undefined, ds: Record<string, unknown>[]): Record<string, unknown> {
  if (src.format === 'dftracer') {
    const files = ds.flatMap((d) => (d.files as { path: string }[]) ?? []);
    files.sort((a, b) => (a.path < b.path ? -1 : 1));
    return { files };
  }
  const ranks = ds.flatMap((d) => (d.ranks as { rank: number }[]) ?? []);
  ranks.sort((a, b) => a.rank - b.rank);
  return { ...meta, ranks, workers: ds.length };
}
