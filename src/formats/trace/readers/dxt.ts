import { basename } from 'node:path';
import { DarshanLog, moduleByName, openDarshanLog, type DxtTable } from '../../darshan/index.js';
import { RECORD_HEAD } from '../../darshan/modules/dxt.js';
import { nameText } from '../../darshan/names.js';
import { dxtRecordBatches, dxtSegmentBytes, dxtStreamable, segmentsOf, writesOf, type DxtRecordTap } from '../../darshan/dxt-batches.js';
import { IOLensError, LimitError } from '../../../contract/errors.js';
import type { ReadLimits } from '../../../util/limits.js';
import { TraceInputError } from '../errors.js';
import { Category, ChunkWriter, Layer, type TraceDicts } from '../model.js';
import type { ReadResult } from './types.js';

/**
 * Darshan DXT reader: DXT_POSIX and DXT_MPIIO segments of a Darshan log. Each segment is one read or write with its
 * offset, length and start/end (seconds since the job start; `timeOrigin` is the job start in Unix seconds).
 * DXT does not record which call produced a segment, so functions are `read`/`write` (POSIX) and
 * `MPI_File_read`/`MPI_File_write` (MPI-IO). A record's writes and reads are merged in time order.
 */
export function readDxt(
  path: string,
  out: ChunkWriter,
  modules: readonly ('DXT_POSIX' | 'DXT_MPIIO')[] = ['DXT_POSIX', 'DXT_MPIIO'],
  limits: ReadLimits = {},
  select?: DxtSelect,
): ReadResult {
  try {
    return readLog(path, openDarshanLog(path, inflateOptions(limits)), out, modules, select);
  } catch (err) {
    throw logError(path, err);
  }
}

/**
 * `readDxt` of both DXT modules, streaming: each region is read from the file and inflated piece by piece, and its
 * records are turned into events as they complete (`dxtRecordBatches`), so memory holds one record's segments (not
 * the log, the region nor its decoded columns) and inflating overlaps reading. Same events in the same order, same
 * result as `readDxt`; logs it cannot stream (bzip2, big-endian, unknown DXT versions) go through `readDxt`'s
 * decoding. `offThread`: large regions may be inflated on a thread of their own (`DarshanLog.regionChunks`;
 * 'always': every region, for tests); `chunk`: bytes per inflated piece; `tap`: the log to read, and what else is made
 * of its DXT batches as they pass.
 */
export async function readDxtStreaming(path: string, out: ChunkWriter, limits: ReadLimits = {}, offThread: boolean | 'always' = true, chunk = 1 << 20, tap?: DxtRecordTap): Promise<ReadResult> {
  try {
    const log = tap?.log ?? DarshanLog.openFile(path, inflateOptions(limits));
    const mods = MODULES_READ.filter((m) => log.has(m));
    if (!mods.every((m) => dxtStreamable(log, moduleByName(m)!.id))) return readLog(path, log, out, MODULES_READ);
    const dicts = out.dicts;
    const app = appOf(log);
    const warnings: string[] = [];
    const perModule: Record<string, ModuleStats> = {};
    let events = 0;
    for (const mod of mods) {
      const id = moduleByName(mod)!.id;
      const segBytes = dxtSegmentBytes(log, id);
      const noOffsets = mod === 'DXT_MPIIO' && log.header.moduleVersions[id] === 1;
      const fns = moduleFuncs(dicts, mod);
      const st: ModuleStats = { records: 0, segments: 0, writes: 0, reads: 0, bytesWritten: 0, bytesRead: 0 };
      let error: string | null = null;
      // batches of whole records (the last one may hold a damaged or cut record)
      for await (const batch of dxtRecordBatches(log, id, { chunk, offThread, ahead: READ_AHEAD })) {
        tap?.batch(id, batch);
        const len = batch.length;
        const words = len >>> 3;
        const i32 = new Int32Array(batch.buffer, batch.byteOffset, words * 2);
        const u32 = new Uint32Array(batch.buffer, batch.byteOffset, words * 2);
        const f64 = new Float64Array(batch.buffer, batch.byteOffset, words);
        let q = 0;
        while (len - q >= RECORD_HEAD) {
          const segs = segmentsOf(i32, u32, q);
          if (segs < 0 || len - q - RECORD_HEAD < segs * segBytes) {
            error = `${mod} record's segments extend past the end of its region`;
            break;
          }
          const nw = writesOf(i32, u32, q);
          const nr = segs - nw;
          const wq = q >>> 2;
          const recId = (BigInt(u32[wq + 1]) << 32n) | BigInt(u32[wq]);
          const rank = i32[wq + 3] * 4294967296 + u32[wq + 2];
          const hostBytes = batch.subarray(q + 24, q + 88);
          const nul = hostBytes.indexOf(0);
          const host = Buffer.from(hostBytes.buffer, hostBytes.byteOffset, nul < 0 ? 64 : nul).toString('latin1') || 'unknown';
          const proc = dicts.proc(rank < 0 ? '-1' : String(rank), host, app);
          const stored = log.names.get(recId);
          const file = dicts.files.id(stored !== null ? nameText(stored) : `<record ${recId.toString(16)}>`);
          const s0 = q + RECORD_HEAD;
          pushRecordSegments(out, st, fns, proc, file, i32, u32, f64, s0, nw, nr, segBytes, noOffsets);
          events += segs;
          st.records++;
          st.segments += segs;
          q = s0 + segs * segBytes;
        }
        if (error !== null) break;
      }
      tap?.end(id);
      if (error !== null) warnings.push(`${mod}: ${error} (read the records before it)`);
      if (log.isPartial(id)) warnings.push(`${mod}: Darshan ran out of DXT memory; some segments are missing`);
      perModule[mod] = st;
    }
    return finish(path, log, out, events, warnings, perModule);
  } catch (err) {
    throw logError(path, err);
  }
}

const MODULES_READ = ['DXT_POSIX', 'DXT_MPIIO'] as const;

/**
 * Pieces the inflating thread may run ahead of the reader. Once its code is optimised the reader turns a piece into
 * events faster than zlib inflates one, but for its first ~200 ms it runs cold and lags behind: with four pieces
 * ahead the inflating thread then sat idle ~110-150 ms of a 5 M-segment region; with 32 (32 MiB, ~90 ms of
 * inflating) it rarely waits (DXT 5 M segments, 64 files x 64 ranks: 895 -> 855 ms). `parse --dxt`, whose printing
 * is slower than inflating throughout, keeps the default 4: more pieces ahead there only hold memory.
 */
const READ_AHEAD = 32;
type ModuleStats = { records: number; segments: number; writes: number; reads: number; bytesWritten: number; bytesRead: number };

/** A DXT module's layer and the functions its writes and reads are given. */
type ModuleFuncs = { layer: Layer; write: number; read: number };

function moduleFuncs(dicts: TraceDicts, mod: 'DXT_POSIX' | 'DXT_MPIIO'): ModuleFuncs {
  const posix = mod === 'DXT_POSIX';
  return { layer: posix ? Layer.POSIX : Layer.MPIIO, write: dicts.funcs.id(posix ? 'write' : 'MPI_File_write'), read: dicts.funcs.id(posix ? 'read' : 'MPI_File_read') };
}

/**
 * Pushes one record's segments (raw, at byte `s0` of the aligned views) as events, its writes and reads merged in
 * time order. A function of its own, small enough for V8 to optimise with `out.push` inlined: called from the
 * reader's async loop, each segment's doubles would otherwise be boxed on the heap (~30 bytes of garbage per event).
 */
function pushRecordSegments(
  out: ChunkWriter,
  st: ModuleStats,
  fns: ModuleFuncs,
  proc: number,
  file: number,
  i32: Int32Array,
  u32: Uint32Array,
  f64: Float64Array,
  s0: number,
  nw: number,
  nr: number,
  segBytes: number,
  noOffsets: boolean,
): void {
  let i = 0;
  let j = 0;
  while (i < nw || j < nr) {
    const takeWrite = j >= nr || (i < nw && f64[((s0 + i * segBytes) >>> 3) + 2] <= f64[((s0 + (nw + j) * segBytes) >>> 3) + 2]);
    const so = takeWrite ? s0 + i++ * segBytes : s0 + (nw + j++) * segBytes;
    const w = so >>> 2;
    const off = noOffsets ? -1 : i32[w + 1] * 4294967296 + u32[w];
    pushSegment(out, st, fns, proc, file, takeWrite, off, i32[w + 3] * 4294967296 + u32[w + 2], f64[(so >>> 3) + 2], f64[(so >>> 3) + 3]);
  }
}

/** Pushes one segment as an event and counts it in its module's statistics. */
function pushSegment(out: ChunkWriter, st: ModuleStats, m: ModuleFuncs, proc: number, file: number, write: boolean, offset: number, size: number, start: number, end: number): void {
  out.push(proc, file, write ? m.write : m.read, m.layer, write ? Category.WRITE : Category.READ, offset, size, start, end);
  if (write) {
    st.writes++;
    st.bytesWritten += size;
  } else {
    st.reads++;
    st.bytesRead += size;
  }
}

function inflateOptions(limits: ReadLimits): { maxInflate?: number } {
  return limits.maxInflate === undefined ? {} : { maxInflate: limits.maxInflate };
}

function appOf(log: DarshanLog): string {
  return basename(log.job.exe.split(' ')[0] || 'unknown') || 'unknown';
}

/** The log's own errors (opening it, or a damaged or oversized region met later) name the file. */
function logError(path: string, err: unknown): unknown {
  if (err instanceof TraceInputError) return err;
  if (err instanceof LimitError) return new LimitError(`${path}: ${err.message}`);
  if (err instanceof IOLensError) return new TraceInputError(`${path}: ${err.message}`);
  const e = err as NodeJS.ErrnoException;
  if (e && e.code && e.syscall) return new TraceInputError(`${path}: cannot open (${e.code})`);
  return err;
}

function finish(path: string, log: DarshanLog, out: ChunkWriter, events: number, warnings: string[], perModule: Record<string, ModuleStats>): ReadResult {
  out.flush();
  let records = 0;
  for (const st of Object.values(perModule)) records += st.records;
  if (records === 0) throw new TraceInputError(`${path}: the log has no DXT_POSIX or DXT_MPIIO records (run with DXT enabled)`);
  const job = log.job;
  return {
    format: 'dxt',
    events,
    sources: records,
    warnings,
    timeOrigin: Number(job.startTimeSec) + Number(job.startTimeNsec) / 1e9,
    details: { jobId: job.jobid.toString(), uid: job.uid.toString(), nprocs: Number(job.nprocs), exe: job.exe, modules: perModule },
  };
}

/**
 * Chooses the records a reader takes (a shard of the log): given the segment count of every record, DXT_POSIX
 * records first, then DXT_MPIIO, it returns the index range [from, to) to read. Module statistics keep the whole
 * log's record and segment counts; events, reads and writes count the chosen records only.
 */
export type DxtSelect = (segments: readonly number[]) => { from: number; to: number };

function readLog(path: string, log: DarshanLog, out: ChunkWriter, modules: readonly ('DXT_POSIX' | 'DXT_MPIIO')[], select?: DxtSelect): ReadResult {
  const dicts = out.dicts;
  const app = appOf(log);
  const warnings: string[] = [];
  const perModule: Record<string, ModuleStats> = {};
  let events = 0;
  const tables: { mod: 'DXT_POSIX' | 'DXT_MPIIO'; t: DxtTable }[] = [];
  for (const mod of modules) {
    const o = log.decode<DxtTable>(mod);
    if (!o) continue;
    if (o.error) warnings.push(`${mod}: ${o.error} (read the records before it)`);
    const slot = log.slots().find((x) => x.name === mod);
    if (slot?.partial) warnings.push(`${mod}: Darshan ran out of DXT memory; some segments are missing`);
    tables.push({ mod, t: o.table });
  }
  let from = 0;
  let to = Infinity;
  if (select) {
    const segments: number[] = [];
    for (const { t } of tables) for (let r = 0; r < t.length; r++) segments.push(t.writeCount[r] + t.readCount[r]);
    ({ from, to } = select(segments));
  }
  let index = 0;
  for (const { mod, t } of tables) {
    const fns = moduleFuncs(dicts, mod);
    const offCol = t.offsetLength.col(0);
    const lenCol = t.offsetLength.col(1);
    const st = { records: t.length, segments: t.segments, writes: 0, reads: 0, bytesWritten: 0, bytesRead: 0 };
    for (let r = 0; r < t.length; r++) {
      const picked = index >= from && index < to;
      index++;
      if (!picked) continue;
      const rank = t.ranks.get(0, r);
      const host = t.hostnames[r] || 'unknown';
      const proc = dicts.proc(rank < 0 ? '-1' : String(rank), host, app);
      const stored = log.names.get(t.ids[r]);
      const name = stored !== null ? nameText(stored) : `<record ${t.ids[r].toString(16)}>`;
      const file = dicts.files.id(name);
      const s0 = t.segStart[r];
      const nw = t.writeCount[r];
      const nr = t.readCount[r];
      let i = 0;
      let j = 0;
      while (i < nw || j < nr) {
        const takeWrite = j >= nr || (i < nw && t.start[s0 + i] <= t.start[s0 + nw + j]);
        const s = takeWrite ? s0 + i++ : s0 + nw + j++;
        pushSegment(out, st, fns, proc, file, takeWrite, offCol[s], lenCol[s], t.start[s], t.end[s]);
      }
      events += nw + nr;
    }
    perModule[mod] = st;
  }
  return finish(path, log, out, events, warnings, perModule);
}
