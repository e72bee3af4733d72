import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { layerMask, type AnalyzeOptions, type BuiltCube, type CubeSource } from './analyze.js';
import { defaultConfig } from '../../config/defaults.js';
import { Cube, MAX_WINDOWS, STRIDE, MAX_FIXED_WINDOWS, type CubeData, type CubeOptions } from '../../trace/cube.js';
import { TraceInputError } from '../../formats/trace/errors.js';
import { ChunkWriter, Layer, LAYER_COUNT, TraceDicts } from '../../formats/trace/model.js';
import { LEDGER_WIDTH } from '../../facts/counters/ledger.js';
import { BUSY_SLOT_WIDTH } from '../../facts/counters/busy-time.js';
import { dictData, mergeParts, type DictData } from './parallel.js';
import { readDftracer } from '../../formats/trace/readers/dftracer.js';
import { readDxt } from '../../formats/trace/readers/dxt.js';
import { readSource, resolveSource, type TraceSource } from '../../formats/trace/readers/index.js';
import { missingRanksWarning, readRecorder, recorderRanks } from '../../formats/trace/readers/recorder.js';
import { isTarName } from '../../formats/trace/readers/tar.js';
import type { ReadResult } from '../../formats/trace/readers/types.js';

/**
 * Sharded trace analysis (`iolens slurm trace`). The trace is cut into units — DFTracer files, Recorder ranks, the
 * records of a DXT log — in the order one sequential read meets them; shard i of N takes the i-th of N consecutive
 * slices of those units (balanced by size), reads them into a cube with its own dictionaries, and saves a partial
 * cube file. The merge loads the N files, checks that they come from the same input and options and cover every
 * unit once, and merges them in shard order: dictionary ids come out as one sequential read assigns them, and every
 * (process, file) pair lives in one shard, so the merged cube — and so the report — is the one `iolens trace`
 * builds. Sources that cannot be split (a Recorder trace without per-rank files, Parquet) are read whole by shard 0.
 *
 * The partial-cube file (version 2: with the time ledger): the 8-byte magic `IOLCUBE\n`, the format version and the header length as
 * little-endian u32, a JSON header (shard, inputs, cube options, unit slice, and per cube: its layer mask, reader
 * result, dictionaries and array lengths), then the typed arrays of each cube (its cells, then its time ledger), each 8-byte aligned, and a SHA-256 of
 * everything before it. Files are written under a temporary name and renamed, so a killed task leaves none.
 */

export const CUBE_PART_VERSION = 2;
const MAGIC = Buffer.from('IOLCUBE\n', 'latin1');
const DIGEST_BYTES = 32;

export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** What a shard covers: units [from, to) of `total`, of one kind. */
export interface UnitSlice {
  readonly kind: 'files' | 'ranks' | 'records' | 'whole';
  readonly total: number;
  readonly from: number;
  readonly to: number;
}

interface PartBuild {
  readonly mask: number;
  readonly cube: CubeData;
  readonly dict: DictData;
  readonly read: ReadResult;
}

interface PartHeader {
  version: number;
  endianness: 'LE' | 'BE';
  stride: number;
  layers: number;
  shard: ShardSpec;
  paths: string[];
  format: TraceSource['format'];
  smallBytes: number;
  fixedBase: number | null;
  /** the layer mask asked for with --layers, or null for the default (POSIX+STDIO, falling back to MPI-IO+HDF5) */
  explicitMask: number | null;
  units: UnitSlice;
  builds: { mask: number; read: ReadResult; dict: DictData; pairs: number; cells: number; funcs: number; ledger: number; busy: number; slots: number }[];
}

/** A loaded partial cube. */
export interface CubePart {
  readonly header: PartHeader;
  readonly builds: readonly PartBuild[];
}

/**
 * Splits weighted units into `count` consecutive slices of about equal weight; every slice is non-empty while there
 * are at least as many units as slices. Returns the [from, to) bounds of each slice.
 */
export function contiguousSlices(weights: readonly number[], count: number): { from: number; to: number }[] {
  const n = weights.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + Math.max(0, weights[i]) + 1;
  const total = prefix[n];
  const bounds = [0];
  for (let k = 1; k < count; k++) {
    const target = (total * k) / count;
    let b = bounds[k - 1];
    while (b < n && prefix[b] + (prefix[b + 1] - prefix[b]) / 2 < target) b++;
    if (n >= count) b = Math.min(Math.max(b, bounds[k - 1] + 1), n - (count - k));
    bounds.push(Math.min(b, n));
  }
  bounds.push(n);
  return Array.from({ length: count }, (_, k) => ({ from: bounds[k], to: bounds[k + 1] }));
}

function fileSize(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

/** The request size below which a request is small: the `small_bytes` knob (`--small-size`). */
function smallBytesOf(opts: AnalyzeOptions): number {
  return (opts.config ?? defaultConfig()).knobs.small_bytes;
}

function cubeOptions(opts: AnalyzeOptions, mask: number): CubeOptions {
  return { layerMask: mask, smallBytes: smallBytesOf(opts), ...(opts.granularity !== undefined ? { fixedBase: opts.granularity } : {}) };
}

const FALLBACK_MASK = (1 << Layer.MPIIO) | (1 << Layer.HDF5);
const DEFAULT_MASK = (1 << Layer.POSIX) | (1 << Layer.STDIO);

/** Reads this shard's units of `src` into one cube. */
async function readShard(src: TraceSource, shard: ShardSpec, copts: CubeOptions, opts: AnalyzeOptions): Promise<{ build: PartBuild; units: UnitSlice }> {
  const dicts = new TraceDicts();
  const cube = new Cube(copts);
  const w = new ChunkWriter(dicts, (chunk) => cube.add(chunk));
  const limits = opts.limits ?? {};
  let read: ReadResult;
  let units: UnitSlice;
  const both = (copts.layerMask & (1 << Layer.POSIX)) !== 0 && (copts.layerMask & (1 << Layer.MPIIO)) !== 0;
  const perRank = src.format === 'recorder' ? recorderRanks(src.dir) : null;
  if (src.format === 'dftracer') {
    const slice = contiguousSlices(src.files.map(fileSize), shard.count)[shard.index];
    units = { kind: 'files', total: src.files.length, ...slice };
    read = await readDftracer(src.files.slice(slice.from, slice.to), w, { limits });
  } else if (src.format === 'recorder' && perRank && perRank.meta.layout === 'per-rank') {
    const ranks = perRank.present;
    const slice = contiguousSlices(ranks.map((r) => fileSize(join(src.dir, `${r}.ts`))), shard.count)[shard.index];
    units = { kind: 'ranks', total: ranks.length, ...slice };
    read = readRecorder(src.dir, w, ranks.slice(slice.from, slice.to), limits);
  } else if (src.format === 'dxt' && !both) {
    // A DXT_POSIX and a DXT_MPIIO record of one file and rank share a (process, file) pair: with both layers in
    // the cube the log is read whole (below), so that pairs are never split.
    let slice = { from: 0, to: 0 };
    let total = 0;
    read = readDxt(src.file, w, undefined, limits, (segments) => {
      total = segments.length;
      slice = contiguousSlices(segments, shard.count)[shard.index];
      return slice;
    });
    units = { kind: 'records', total, ...slice };
  } else {
    units = { kind: 'whole', total: 1, from: Math.min(shard.index, 1), to: 1 };
    if (shard.index === 0) read = await readSource(src, new ChunkWriter(dicts, (chunk) => cube.add(chunk)), limits);
    else read = { format: src.format, events: 0, sources: 0, warnings: [] };
  }
  w.flush();
  return { build: { mask: copts.layerMask, cube: cube.snapshot(), dict: dictData(dicts), read }, units };
}

/**
 * Reads shard `shard` of the trace at `paths` and writes its partial cube to `file`. With the default layers, a
 * shard whose POSIX/STDIO cube is empty while it holds MPI-IO or HDF5 calls also stores the MPI-IO+HDF5 cube, so the
 * merge can fall back as `iolens trace` does when the whole trace has no POSIX/STDIO calls.
 */
export async function writeTracePart(paths: readonly string[], opts: AnalyzeOptions, shard: ShardSpec, file: string): Promise<{ events: number; units: UnitSlice }> {
  if (paths.length === 1 && isTarName(paths[0])) {
    throw new TraceInputError(`${paths[0]}: a sharded analysis reads unpacked traces; unpack the archive on the shared file system and give the folder`);
  }
  const src = resolveSource(paths);
  const explicit = opts.layers !== undefined ? layerMask(opts.layers) : null;
  const first = await readShard(src, shard, cubeOptions(opts, explicit ?? DEFAULT_MASK), opts);
  const builds = [first.build];
  const lc = first.build.cube.layerCalls;
  if (explicit === null && first.build.cube.events === 0 && (lc[Layer.MPIIO] > 0 || lc[Layer.HDF5] > 0)) {
    builds.push((await readShard(src, shard, cubeOptions(opts, FALLBACK_MASK), opts)).build);
  }
  const header: PartHeader = {
    version: CUBE_PART_VERSION,
    endianness: endianness(),
    stride: STRIDE,
    layers: LAYER_COUNT,
    shard: { index: shard.index, count: shard.count },
    paths: [...paths],
    format: src.format,
    smallBytes: smallBytesOf(opts),
    fixedBase: opts.granularity ?? null,
    explicitMask: explicit,
    units: first.units,
    builds: builds.map((b) => ({ mask: b.mask, read: b.read, dict: b.dict, pairs: b.cube.pairProc.length, cells: b.cube.cellPair.length, funcs: b.cube.funcCalls.length, ledger: b.cube.ledger.proc.length, busy: b.cube.ledger.busy.proc.length, slots: b.cube.ledger.busy.slots.length / BUSY_SLOT_WIDTH })),
  };
  writePartFile(file, header, builds);
  return { events: first.build.cube.events, units: first.units };
}

function arraysOf(c: CubeData): (Int32Array | Float64Array)[] {
  const l = c.ledger;
  return [
    c.pairProc, c.pairFile, c.cellPair, c.cellWin, c.stats, c.funcCalls, c.layerCalls, Float64Array.of(c.base, c.originWin, c.events, c.minStart, c.maxEnd),
    l.proc, l.file, Int32Array.from(l.layer), Int32Array.from(l.nested), l.stats, Float64Array.of(l.minStart, l.maxEnd),
    l.busy.proc, l.busy.exponent, l.busy.first, l.busy.offsets, l.busy.slots,
  ];
}

function pad8(n: number): number {
  return (8 - (n % 8)) % 8;
}

function writePartFile(file: string, header: PartHeader, builds: readonly PartBuild[]): void {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(16);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(CUBE_PART_VERSION, 8);
  head.writeUInt32LE(json.length, 12);
  const chunks: Uint8Array[] = [head, json, Buffer.alloc(pad8(16 + json.length))];
  for (const b of builds) {
    for (const a of arraysOf(b.cube)) {
      chunks.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      chunks.push(Buffer.alloc(pad8(a.byteLength)));
    }
  }
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  chunks.push(hash.digest());
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    for (const c of chunks) {
      let off = 0;
      while (off < c.byteLength) off += writeSync(fd, c, off, c.byteLength - off);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Reads and checks one partial-cube file. */
export function readPartFile(file: string): CubePart {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (err) {
    throw new TraceInputError(`${file}: cannot read partial cube (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const bad = (why: string) => new TraceInputError(`${file}: not a usable IOLens partial cube (${why})`);
  if (buf.length < 16 + DIGEST_BYTES || !buf.subarray(0, 8).equals(MAGIC)) throw bad('no IOLCUBE header');
  const version = buf.readUInt32LE(8);
  if (version !== CUBE_PART_VERSION) throw bad(`format version ${version}, this IOLens reads version ${CUBE_PART_VERSION}`);
  const body = buf.subarray(0, buf.length - DIGEST_BYTES);
  if (!createHash('sha256').update(body).digest().equals(buf.subarray(buf.length - DIGEST_BYTES))) throw bad('checksum mismatch: truncated or damaged');
  const hlen = buf.readUInt32LE(12);
  if (16 + hlen > body.length) throw bad('header runs past the end');
  let header: PartHeader;
  try {
    header = JSON.parse(buf.toString('utf8', 16, 16 + hlen)) as PartHeader;
  } catch {
    throw bad('header is not JSON');
  }
  if (header.endianness !== endianness()) throw bad(`written on a ${header.endianness} machine`);
  if (header.stride !== STRIDE || header.layers !== LAYER_COUNT) throw bad('cube layout of another IOLens version');
  let off = 16 + hlen;
  off += pad8(off);
  const take = <T extends Int32Array | Float64Array>(Ctor: { new (n: number): T; BYTES_PER_ELEMENT: number }, n: number): T => {
    const bytes = n * Ctor.BYTES_PER_ELEMENT;
    if (!Number.isInteger(n) || n < 0 || off + bytes > body.length) throw bad('arrays run past the end');
    const out = new Ctor(n);
    new Uint8Array(out.buffer).set(body.subarray(off, off + bytes));
    off += bytes + pad8(bytes);
    return out;
  };
  const builds = header.builds.map((b): PartBuild => {
    const pairProc = take(Int32Array, b.pairs);
    const pairFile = take(Int32Array, b.pairs);
    const cellPair = take(Int32Array, b.cells);
    const cellWin = take(Int32Array, b.cells);
    const stats = take(Float64Array, b.cells * STRIDE);
    const funcCalls = take(Float64Array, b.funcs);
    const layerCalls = take(Float64Array, LAYER_COUNT);
    const [base, originWin, events, minStart, maxEnd] = take(Float64Array, 5);
    const proc = take(Int32Array, b.ledger);
    const lfile = take(Int32Array, b.ledger);
    const layer = Uint8Array.from(take(Int32Array, b.ledger));
    const nested = Uint8Array.from(take(Int32Array, b.ledger));
    const lstats = take(Float64Array, b.ledger * LEDGER_WIDTH);
    const [lmin, lmax] = take(Float64Array, 2);
    const busy = { proc: take(Int32Array, b.busy), exponent: take(Int32Array, b.busy), first: take(Float64Array, b.busy), offsets: take(Int32Array, b.busy + 1), slots: take(Float64Array, b.slots * BUSY_SLOT_WIDTH) };
    for (let k = 0; k <= b.busy; k++) if (busy.offsets[k] < (k ? busy.offsets[k - 1] : 0) || busy.offsets[k] > b.slots) throw bad('busy time slots out of range');
    const ledger = { minStart: lmin, maxEnd: lmax, proc, file: lfile, layer, nested, stats: lstats, busy };
    return { mask: b.mask, read: b.read, dict: b.dict, cube: { base, originWin, pairProc, pairFile, cellPair, cellWin, stats, funcCalls, layerCalls, events, minStart, maxEnd, ledger } };
  });
  if (off !== body.length) throw bad('unexpected bytes after the arrays');
  return { header, builds };
}

/** The partial-cube files of a folder (`*.cube`), loaded and checked to be one complete, consistent set. */
export function loadParts(dir: string, paths: readonly string[], opts: AnalyzeOptions): CubePart[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.cube')).sort();
  } catch (err) {
    throw new TraceInputError(`${dir}: cannot read the partial-cube folder (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (names.length === 0) throw new TraceInputError(`${dir}: no partial cubes (*.cube)`);
  const parts = names.map((n) => ({ name: n, part: readPartFile(join(dir, n)) }));
  const count = parts[0].part.header.shard.count;
  const byIndex: (CubePart | undefined)[] = Array.from({ length: count }, () => undefined);
  const explicit = opts.layers !== undefined ? layerMask(opts.layers) : null;
  for (const { name, part } of parts) {
    const h = part.header;
    const where = `${join(dir, name)}`;
    if (h.shard.count !== count) throw new TraceInputError(`${where}: shard ${h.shard.index}/${h.shard.count} does not belong with shards of ${count}`);
    if (byIndex[h.shard.index]) throw new TraceInputError(`${where}: shard ${h.shard.index} appears twice`);
    if (JSON.stringify(h.paths) !== JSON.stringify(paths)) throw new TraceInputError(`${where}: made from ${JSON.stringify(h.paths)}, not from ${JSON.stringify(paths)}`);
    if (h.smallBytes !== smallBytesOf(opts)) throw new TraceInputError(`${where}: made with --small-size ${h.smallBytes}, not ${smallBytesOf(opts)}`);
    if (h.fixedBase !== (opts.granularity ?? null)) throw new TraceInputError(`${where}: made with another --granularity`);
    if (h.explicitMask !== explicit) throw new TraceInputError(`${where}: made with other --layers`);
    byIndex[h.shard.index] = part;
  }
  const missing = byIndex.flatMap((p, i) => (p ? [] : [i]));
  if (missing.length > 0) throw new TraceInputError(`${dir}: partial cubes of shards ${missing.join(', ')} (of ${count}) are missing`);
  const list = byIndex as CubePart[];
  const kind = list[0].header.units.kind;
  const total = list[0].header.units.total;
  let at = 0;
  for (const p of list) {
    const u = p.header.units;
    if (u.kind !== kind || u.total !== total || u.from !== at || u.to < u.from) {
      throw new TraceInputError(`${dir}: shard ${p.header.shard.index} covers ${u.kind} ${u.from}–${u.to} of ${u.total}, expected ${kind} from ${at} of ${total} (the input changed between shards?)`);
    }
    at = u.to;
  }
  if (at !== total) throw new TraceInputError(`${dir}: the shards cover ${at} of ${total} ${kind}`);
  return list;
}

/** The build of a part for a layer mask (the default cube, the fallback cube, or an empty default that stands for it). */
function buildFor(part: CubePart, mask: number): PartBuild {
  const exact = part.builds.find((b) => b.mask === mask);
  if (exact) return exact;
  const first = part.builds[0];
  const fallback = part.builds.find((b) => b.mask === FALLBACK_MASK);
  if ((mask & ~FALLBACK_MASK) === 0 && part.header.explicitMask === null) {
    if (fallback) return fallback;
    const lc = first.cube.layerCalls;
    // No MPI-IO or HDF5 call in this shard: its cube for those layers has no cell, like the empty default one.
    if (first.cube.events === 0 && lc[Layer.MPIIO] === 0 && lc[Layer.HDF5] === 0) return first;
  }
  throw new TraceInputError(`shard ${part.header.shard.index} has no cube for the layers asked for`);
}

/**
 * The window width the merged cube gets. A sequential read widens its windows ×10 whenever the trace spans more than
 * MAX_WINDOWS of them; the shards did so on their own spans, so the merge continues from the widest shard base to
 * the width the whole span needs (window numbers are whole, and floor(floor(x/10)/10) = floor(x/100)). With a fixed
 * granularity the base is the user's, and a span past the cube's limit is the error a sequential read gives.
 */
function mergedBase(cubes: readonly CubeData[], fixed: boolean): number {
  let base = Math.max(...cubes.map((c) => c.base));
  for (;;) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const c of cubes) {
      if (c.cellWin.length === 0) continue;
      const ratio = Math.round(base / c.base);
      let a = Infinity;
      let b = -Infinity;
      for (let i = 0; i < c.cellWin.length; i++) {
        if (c.cellWin[i] < a) a = c.cellWin[i];
        if (c.cellWin[i] > b) b = c.cellWin[i];
      }
      lo = Math.min(lo, Math.floor((c.originWin + a) / ratio));
      hi = Math.max(hi, Math.floor((c.originWin + b) / ratio));
    }
    if (fixed) {
      if (hi - lo >= MAX_FIXED_WINDOWS) throw new TraceInputError(`time granularity ${base} s gives more than ${MAX_FIXED_WINDOWS} windows; choose a coarser one`);
      return base;
    }
    if (!(hi - lo > MAX_WINDOWS)) return base;
    base *= 10;
  }
}

/** Combines the reader results of the shards into the one a sequential read gives. */
function mergeReads(kind: UnitSlice['kind'], parts: readonly { read: ReadResult; units: UnitSlice }[]): ReadResult {
  const reads = parts.map((p) => p.read);
  const events = reads.reduce((a, r) => a + r.events, 0);
  if (kind === 'whole') return parts.find((p) => p.units.from < p.units.to)!.read;
  if (kind === 'files') {
    return { ...reads[0], events, sources: reads.reduce((a, r) => a + r.sources, 0), warnings: reads.flatMap((r) => r.warnings), details: { files: reads.flatMap((r) => (r.details?.files as unknown[]) ?? []) } };
  }
  if (kind === 'ranks') {
    const d = reads[0].details ?? {};
    const missing = (d.missingRanks as number[]) ?? [];
    const head = missing.length > 0 ? [missingRanksWarning(Number(d.presentRanks), Number(d.totalRanks), missing)] : [];
    return {
      ...reads[0],
      events,
      sources: reads.reduce((a, r) => a + r.sources, 0),
      warnings: [...head, ...reads.flatMap((r) => r.warnings)],
      details: { ...d, ranks: reads.flatMap((r) => (r.details?.ranks as unknown[]) ?? []) },
    };
  }
  // records of one DXT log: every shard decoded the whole log, so record counts and warnings are the log's
  const d = reads[0].details ?? {};
  const modules: Record<string, Record<string, number>> = {};
  for (const [mod, st] of Object.entries((d.modules as Record<string, Record<string, number>>) ?? {})) {
    const sum = (k: string) => reads.reduce((a, r) => a + ((r.details?.modules as Record<string, Record<string, number>>)[mod]?.[k] ?? 0), 0);
    modules[mod] = { ...st, writes: sum('writes'), reads: sum('reads'), bytesWritten: sum('bytesWritten'), bytesRead: sum('bytesRead') };
  }
  return { ...reads[0], events, details: { ...d, modules } };
}

/**
 * The cube source of `analyzeTrace` for a folder of partial cubes: the cube of a layer mask is the merge of every
 * shard's cube for that mask. The parts are loaded and checked on first use.
 */
export function partsCubeSource(dir: string, paths: readonly string[], opts: AnalyzeOptions): CubeSource {
  let parts: CubePart[] | null = null;
  return async (mask: number): Promise<BuiltCube> => {
    parts ??= loadParts(dir, paths, opts);
    const chosen = parts.map((p) => ({ ...buildFor(p, mask), units: p.header.units }));
    const base = mergedBase(chosen.map((c) => c.cube), opts.granularity !== undefined);
    // An empty cube of the chosen width makes mergeCubes bring every shard to it.
    const width = { cube: new Cube({ layerMask: 0, smallBytes: 0, fixedBase: base }).snapshot(), dict: dictData(new TraceDicts()) };
    const { cube, dicts } = mergeParts([...chosen, width]);
    return { cube, dicts, read: mergeReads(parts[0].header.units.kind, chosen) };
  };
}
