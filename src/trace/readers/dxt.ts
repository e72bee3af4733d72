import { basename } from 'node:path';
import { openDarshanLog, type DarshanLog, type DxtTable } from '../../formats/darshan/index.js';
import { IOLensError, LimitError } from '../../contract/errors.js';
import type { ReadLimits } from '../../util/limits.js';
import { TraceInputError } from '../errors.js';
import { Category, ChunkWriter, Layer } from '../model.js';
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
    return readLog(path, openDarshanLog(path, limits.maxInflate === undefined ? {} : { maxInflate: limits.maxInflate }), out, modules, select);
  } catch (err) {
    // The log's own errors (opening it, or a damaged or oversized region met later) name the file.
    if (err instanceof TraceInputError) throw err;
    if (err instanceof LimitError) throw new LimitError(`${path}: ${err.message}`);
    if (err instanceof IOLensError) throw new TraceInputError(`${path}: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    if (e && e.code && e.syscall) throw new TraceInputError(`${path}: cannot open (${e.code})`);
    throw err;
  }
}

/**
 * Chooses the records a reader takes (a shard of the log): given the segment count of every record, DXT_POSIX
 * records first, then DXT_MPIIO, it returns the index range [from, to) to read. Module statistics keep the whole
 * log's record and segment counts; events, reads and writes count the chosen records only.
 */
export type DxtSelect = (segments: readonly number[]) => { from: number; to: number };

function readLog(path: string, log: DarshanLog, out: ChunkWriter, modules: readonly ('DXT_POSIX' | 'DXT_MPIIO')[], select?: DxtSelect): ReadResult {
  const dicts = out.dicts;
  const app = basename(log.job.exe.split(' ')[0] || 'unknown') || 'unknown';
  const warnings: string[] = [];
  const perModule: Record<string, { records: number; segments: number; writes: number; reads: number; bytesWritten: number; bytesRead: number }> = {};
  let events = 0;
  let records = 0;
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
    const layer = mod === 'DXT_POSIX' ? Layer.POSIX : Layer.MPIIO;
    const wf = dicts.funcs.id(mod === 'DXT_POSIX' ? 'write' : 'MPI_File_write');
    const rf = dicts.funcs.id(mod === 'DXT_POSIX' ? 'read' : 'MPI_File_read');
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
      const name = log.names.get(t.ids[r]) ?? `<record ${t.ids[r].toString(16)}>`;
      const file = dicts.files.id(name);
      const s0 = t.segStart[r];
      const nw = t.writeCount[r];
      const nr = t.readCount[r];
      let i = 0;
      let j = 0;
      while (i < nw || j < nr) {
        const takeWrite = j >= nr || (i < nw && t.start[s0 + i] <= t.start[s0 + nw + j]);
        const s = takeWrite ? s0 + i++ : s0 + nw + j++;
        const len = lenCol[s];
        out.push(proc, file, takeWrite ? wf : rf, layer, takeWrite ? Category.WRITE : Category.READ, offCol[s], len, t.start[s], t.end[s]);
        if (takeWrite) {
          st.writes++;
          st.bytesWritten += len;
        } else {
          st.reads++;
          st.bytesRead += len;
        }
      }
      events += nw + nr;
    }
    records += t.length;
    perModule[mod] = st;
  }
  out.flush();
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
