import type { FixedTable } from '../formats/darshan/index.js';
import type { NotRecorded } from '../contract/index.js';
import { defineFact, type FactReader } from './define-fact.js';
import type { FactSource } from './source.js';
import { TimeModelBuilder, type TimeLayer, type TimeModel } from './time-model.js';
import { notStorageReason } from './not-storage.js';

/**
 * `io.time`: the job's time model (src/facts/time-model.ts) — from a trace's calls when the input was derived from
 * one (it brings its model), else from Darshan's counters, refined by DXT: where a file synced and DXT traced all
 * its writes, the write calls' own durations split Darshan's write time (which includes fsync and MPI_File_sync)
 * into writes and syncs.
 */
export default defineFact({
  name: 'io.time',
  description:
    "The job's I/O time by layer × operation class × file × rank, in two semantics (the slowest rank; summed over ranks), layers nested so nothing counts twice; DXT splits sync time out of write time.",
  compute(src, facts) {
    if (src.log.timeModel) return src.log.timeModel;
    return fromCounters(src, facts);
  },
});

/** Counter prefixes of the modules the model reads, with their layer. */
const TIMED = [
  { module: 'POSIX', prefix: 'POSIX', layer: 'POSIX', syncs: ['POSIX_FSYNCS', 'POSIX_FDSYNCS'], dxt: 'DXT_POSIX' },
  { module: 'MPI-IO', prefix: 'MPIIO', layer: 'MPI-IO', syncs: ['MPIIO_SYNCS'], dxt: 'DXT_MPIIO' },
  { module: 'STDIO', prefix: 'STDIO', layer: 'STDIO', syncs: [], dxt: null },
  { module: 'H5D', prefix: 'H5D', layer: 'HDF5', syncs: [], dxt: null },
  { module: 'PNETCDF_VAR', prefix: 'PNETCDF_VAR', layer: 'PnetCDF', syncs: [], dxt: null },
  { module: 'DFS', prefix: 'DFS', layer: 'DFS', syncs: [], dxt: null },
  { module: 'DAOS', prefix: 'DAOS', layer: 'DAOS', syncs: [], dxt: null },
] as const satisfies readonly { module: string; prefix: string; layer: TimeLayer; syncs: readonly string[]; dxt: string | null }[];

/** A float column, or null when the table lacks it. */
function floats(t: FixedTable, name: string): Float64Array | null {
  return t.floatCol(name) >= 0 ? t.float(name) : null;
}
function ints(t: FixedTable, name: string): Float64Array | null {
  return t.intCol(name) >= 0 ? t.int(name) : null;
}

/** The file record id an HDF5 dataset / PnetCDF variable belongs to: its file record id, else by name (`file:/dset`). */
function fileOf(t: FixedTable, src: FactSource): (r: number) => bigint {
  const fids = t.fileRecIds;
  let byName: Map<string, bigint> | null = null;
  return (r) => {
    const id = fids ? fids[r] : 0n;
    if (id !== 0n) return id;
    const name = src.log.names.get(t.ids[r]);
    const colon = name ? name.lastIndexOf(':') : -1;
    if (!name || colon <= 0) return t.ids[r];
    if (!byName) {
      byName = new Map();
      for (const m of ['POSIX', 'MPI-IO', 'H5F', 'PNETCDF_FILE']) {
        const ft = src.log.has(m) ? src.fixed(m) : null;
        if (!ft) continue;
        for (let i = 0; i < ft.length; i++) {
          const n = src.log.names.get(ft.ids[i]);
          if (n !== null) byName.set(n, ft.ids[i]);
        }
      }
    }
    return byName.get(name.slice(0, colon)) ?? t.ids[r];
  };
}

function fromCounters(src: FactSource, facts: FactReader): TimeModel {
  const job = facts.get('job');
  const b = new TimeModelBuilder();
  const notRecorded: NotRecorded[] = [];
  let refined = false;
  const completeness = facts.tryGet('completeness');
  const partial = new Set((completeness?.modules ?? []).map((m) => m.module));
  for (const spec of TIMED) {
    if (!src.log.has(spec.module)) continue;
    // DFS calls go to DAOS objects: with both modules, DAOS time is beneath DFS's and not added again.
    if (spec.module === 'DAOS' && src.log.has('DFS')) continue;
    const t = src.fixed(spec.module);
    if (!t || !t.length) continue;
    const p = spec.prefix;
    const meta = floats(t, `${p}_F_META_TIME`), read = floats(t, `${p}_F_READ_TIME`), write = floats(t, `${p}_F_WRITE_TIME`);
    const slow = floats(t, `${p}_F_SLOWEST_RANK_TIME`), fast = floats(t, `${p}_F_FASTEST_RANK_TIME`);
    const slowRank = ints(t, `${p}_SLOWEST_RANK`), fastRank = ints(t, `${p}_FASTEST_RANK`);
    const syncCols = spec.syncs.map((c) => ints(t, c)).filter((c): c is Float64Array => c !== null);
    const writes = ints(t, spec.module === 'MPI-IO' ? 'MPIIO_INDEP_WRITES' : `${p}_WRITES`);
    const mpiWrites = spec.module === 'MPI-IO' ? ['MPIIO_COLL_WRITES', 'MPIIO_SPLIT_WRITES', 'MPIIO_NB_WRITES'].map((c) => ints(t, c)) : [];
    const rank = t.ranks.col(0);
    const key = spec.layer === 'HDF5' || spec.layer === 'PnetCDF' ? fileOf(t, src) : (r: number) => t.ids[r];
    // Syncs hide in write time; DXT's write calls (when it traced every write of the record) take them out.
    let syncing = false;
    for (const c of syncCols) for (let r = 0; r < t.length && !syncing; r++) if (c[r] > 0) syncing = true;
    const dxt = syncing && spec.dxt && !partial.has(spec.dxt) ? (facts.tryGet('dxt.writes')?.[spec.dxt] ?? null) : null;
    let hidden = 0;
    for (let r = 0; r < t.length; r++) {
      let w = write ? write[r] : 0;
      let sync = 0;
      let syncs = 0;
      for (const c of syncCols) syncs += Math.max(0, c[r]);
      if (syncs > 0 && w > 0) {
        let n = writes ? Math.max(0, writes[r]) : 0;
        for (const c of mpiWrites) if (c) n += Math.max(0, c[r]);
        const traced = dxt ? (rank[r] < 0 ? dxt.byFile.get(t.ids[r]) : dxt.byRecord.get(`${t.ids[r]}:${rank[r]}`)) : undefined;
        if (n === 0) {
          // Syncs on a descriptor that wrote nothing itself (a stream synced through fileno()): all of it is sync.
          sync = w;
          w = 0;
        } else if (traced && traced.writes === n && traced.seconds <= w) {
          sync = w - traced.seconds;
          w = traced.seconds;
          refined = true;
        } else hidden++;
      }
      b.add(
        key(r),
        rank[r],
        spec.layer,
        { metadata: meta ? meta[r] : 0, read: read ? read[r] : 0, write: w, sync },
        rank[r] < 0
          ? { slowest: slow ? slow[r] : NaN, slowestRank: slowRank ? slowRank[r] : -1, fastest: fast ? fast[r] : NaN, fastestRank: fastRank ? fastRank[r] : -1 }
          : undefined,
      );
    }
    if (hidden > 0) {
      notRecorded.push({
        layer: spec.layer,
        op: 'sync',
        reason: `counted in write time on ${hidden} record(s): Darshan adds ${spec.module === 'MPI-IO' ? 'MPI_File_sync' : 'fsync/fdatasync'} time to ${p}_F_WRITE_TIME${spec.dxt ? ` and ${spec.dxt} did not trace every write of them` : ''}`,
      });
    }
  }
  // HDF5 files (H5F: open, create, flush, close) and PnetCDF files (open, create, redefinition, wait).
  if (src.log.has('H5F')) {
    const t = src.fixed('H5F');
    if (t && t.length) {
      const meta = floats(t, 'H5F_F_META_TIME');
      const rank = t.ranks.col(0);
      for (let r = 0; r < t.length; r++) b.add(t.ids[r], rank[r], 'HDF5', { metadata: meta ? meta[r] : 0 });
    }
  }
  if (src.log.has('PNETCDF_FILE')) {
    const t = src.fixed('PNETCDF_FILE');
    if (t && t.length) {
      const meta = floats(t, 'PNETCDF_FILE_F_META_TIME');
      const wait = floats(t, 'PNETCDF_FILE_F_WAIT_TIME');
      const br = ints(t, 'PNETCDF_FILE_BYTES_READ'), bw = ints(t, 'PNETCDF_FILE_BYTES_WRITTEN');
      const rank = t.ranks.col(0);
      for (let r = 0; r < t.length; r++) {
        // The wait completes the posted non-blocking requests: their reads and writes, split by bytes.
        const w = wait ? Math.max(0, wait[r]) : 0;
        const rd = br ? Math.max(0, br[r]) : 0, wr = bw ? Math.max(0, bw[r]) : 0;
        const readPart = rd + wr > 0 ? rd / (rd + wr) : 0;
        b.add(t.ids[r], rank[r], 'PnetCDF', { metadata: meta ? meta[r] : 0, read: w * readPart, write: rd + wr > 0 ? w * (1 - readPart) : 0, other: rd + wr > 0 ? 0 : w });
      }
    }
  }
  // A rank cannot wait in I/O longer than the job ran: calls whose times sum to more ran at once (threads blocked on
  // pipes, asynchronous I/O), which Darshan's counters add up.
  const apart = (key: bigint) => {
    const name = src.log.names.get(key);
    return name === null ? null : notStorageReason(name, src.log.mountOf(name)?.fsType ?? null);
  };
  return b.build({ runTime: job.runSeconds, processes: Math.max(0, job.processes), notRecorded, source: refined ? 'counters+dxt' : 'counters', apart, ...(job.runSeconds > 0 ? { rankCap: job.runSeconds } : {}) });
}
