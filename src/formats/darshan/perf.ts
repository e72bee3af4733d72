/**
 * Per-module performance estimates, as darshan-util's accumulator derives them (what `darshan-parser --perf`
 * prints): bytes moved, the slowest rank's time in its unique (one-rank) files, the summed slowest-rank time of
 * shared files, and the aggregate time and throughput those imply.
 *
 * Semantics (darshan-util 3.5.0, darshan-logutils-accumulator.c and each module's record-metrics function):
 * - only POSIX, MPI-IO, STDIO, DFS and DAOS have an accumulator; every record of the module counts;
 * - bytes: sum over records of BYTES_READ + BYTES_WRITTEN (signed 64-bit, a -1 "not measured" counts as -1);
 * - a record with rank < 0 is a shared file: its F_SLOWEST_RANK_TIME adds to the shared time;
 * - a record with rank >= 0 adds (META + READ) + WRITE time to that rank's unique-file time (and META to its
 *   metadata-only, READ + WRITE to its read/write-only time); the slowest rank is the lowest rank whose total is
 *   strictly greatest (and above zero);
 * - aggregate time = slowest unique time + shared time; aggregate MiB/s = (bytes / 2^20) / aggregate time,
 *   0 when the time is 0.
 *
 * Where IOLens reads more than darshan-parser: darshan-parser sizes its per-rank arrays by the job's nprocs, so it
 * aborts on a record whose rank is >= nprocs, and when nprocs is garbage (too large to allocate) it prints zeros.
 * Here per-rank totals are kept for the ranks that occur, so such logs get the values their records imply;
 * `ranksBeyondNprocs` counts the records whose rank is outside the job, for callers that want to flag them.
 */
import type { DarshanLog } from './log.js';
import type { FixedTable } from './modules/fixed-codec.js';

/** The modules darshan-util can derive performance estimates for, in module-id order. */
export const PERF_MODULES = [
  { id: 1, name: 'POSIX', prefix: 'POSIX' },
  { id: 2, name: 'MPI-IO', prefix: 'MPIIO' },
  { id: 9, name: 'STDIO', prefix: 'STDIO' },
  { id: 16, name: 'DFS', prefix: 'DFS' },
  { id: 17, name: 'DAOS', prefix: 'DAOS' },
] as const;

export type PerfModuleName = (typeof PERF_MODULES)[number]['name'];

/** Whether a module id has performance estimates. */
export function hasPerfSupport(moduleId: number): boolean {
  return PERF_MODULES.some((m) => m.id === moduleId);
}

/** One module's estimates: plain numbers (seconds, bytes, MiB/s) plus data-quality flags. */
export interface PerfEstimate {
  module: PerfModuleName;
  moduleId: number;
  /** Records counted (all ranks). */
  records: number;
  /** Of which shared-file records (rank < 0). */
  sharedRecords: number;
  /** Bytes read + written; exact while within ±2^53 (see totalBytesText). */
  totalBytes: number;
  /** totalBytes as exact signed 64-bit decimal text. */
  totalBytesText: string;
  /** Unique files: the slowest rank's total (metadata + read + write) time, seconds. */
  slowestRankIoTime: number;
  /** Unique files: that rank's metadata-only time. */
  slowestRankMetaOnlyTime: number;
  /** Unique files: that rank's read + write time. */
  slowestRankRwOnlyTime: number;
  /** Unique files: the slowest rank (0 when no rank spent time). */
  slowestRank: number;
  /** Shared files: sum over shared files of their slowest rank's time, seconds. */
  sharedTimeBySlowest: number;
  /** slowestRankIoTime + sharedTimeBySlowest, seconds. */
  aggTimeBySlowest: number;
  /** Aggregate throughput, MiB/s (2^20 bytes); 0 when aggTimeBySlowest is 0. */
  aggPerfBySlowest: number;
  /** The runtime ran out of memory for this module: some files are missing from the estimate. */
  partial: boolean;
  /** The module's records could not all be read (the estimate covers those read); null when fine. */
  decodeError: string | null;
  /** Records whose rank is >= the job's nprocs (inconsistent log; counted as that rank's unique files). */
  ranksBeyondNprocs: number;
}

const TWO53 = 9007199254740992;
/** Beyond this many ranks the per-rank totals are kept sparse instead of in dense arrays. */
const DENSE_RANKS = 1 << 22;

/** The accumulator's result for one module table. */
export function computeTablePerf(
  table: FixedTable,
  nprocs: bigint,
): Omit<PerfEstimate, 'module' | 'moduleId' | 'partial' | 'decodeError'> {
  const mod = PERF_MODULES.find((m) => m.id === table.moduleId);
  if (!mod) throw new Error(`module ${table.module} has no performance estimates`);
  const p = mod.prefix;
  const n = table.length;
  const rank = table.ranks.col(0);
  const cRead = table.intCol(`${p}_BYTES_READ`);
  const cWritten = table.intCol(`${p}_BYTES_WRITTEN`);
  const bytesRead = table.ints.col(cRead);
  const bytesWritten = table.ints.col(cWritten);
  const meta = table.float(`${p}_F_META_TIME`);
  const read = table.float(`${p}_F_READ_TIME`);
  const write = table.float(`${p}_F_WRITE_TIME`);
  const slowest = table.float(`${p}_F_SLOWEST_RANK_TIME`);

  // Bytes: signed 64-bit sum. Doubles are exact while every value and partial sum stays within 2^53.
  let bytes = 0;
  let exact = !table.ints.hasOverflow;
  for (let r = 0; r < n && exact; r++) {
    bytes += bytesRead[r] + bytesWritten[r];
    if (bytes > TWO53 || bytes < -TWO53) exact = false;
  }
  let bytesBig: bigint;
  if (exact) bytesBig = BigInt(bytes);
  else {
    bytesBig = 0n;
    for (let r = 0; r < n; r++) {
      const v = BigInt.asIntN(64, table.ints.exact(cRead, r) + table.ints.exact(cWritten, r));
      bytesBig = BigInt.asIntN(64, bytesBig + v);
    }
    bytes = Number(bytesBig);
  }

  // Shared time, and the largest unique-file rank (to choose dense or sparse per-rank totals).
  let shared = 0;
  let sharedRecords = 0;
  let maxRank = -1;
  let beyond = 0;
  const np = Number(nprocs);
  for (let r = 0; r < n; r++) {
    const k = rank[r];
    if (k < 0) {
      shared += slowest[r];
      sharedRecords++;
    } else {
      if (k > maxRank) maxRank = k;
      if (k >= np) beyond++;
    }
  }

  let bestIo = 0;
  let bestMeta = 0;
  let bestRw = 0;
  let bestRank = 0;
  if (maxRank >= 0 && maxRank < DENSE_RANKS) {
    const m = maxRank + 1;
    const io = new Float64Array(m);
    const md = new Float64Array(m);
    const rw = new Float64Array(m);
    for (let r = 0; r < n; r++) {
      const k = rank[r];
      if (k < 0) continue;
      io[k] += meta[r] + read[r] + write[r];
      md[k] += meta[r];
      rw[k] += read[r] + write[r];
    }
    for (let k = 0; k < m; k++) {
      if (io[k] > bestIo) {
        bestIo = io[k];
        bestRw = rw[k];
        bestMeta = md[k];
        bestRank = k;
      }
    }
  } else if (maxRank >= 0) {
    const slot = new Map<number, number>();
    const io: number[] = [];
    const md: number[] = [];
    const rw: number[] = [];
    for (let r = 0; r < n; r++) {
      const k = rank[r];
      if (k < 0) continue;
      let s = slot.get(k);
      if (s === undefined) {
        s = io.length;
        slot.set(k, s);
        io.push(0);
        md.push(0);
        rw.push(0);
      }
      io[s] += meta[r] + read[r] + write[r];
      md[s] += meta[r];
      rw[s] += read[r] + write[r];
    }
    for (const k of [...slot.keys()].sort((a, b) => a - b)) {
      const s = slot.get(k)!;
      if (io[s] > bestIo) {
        bestIo = io[s];
        bestRw = rw[s];
        bestMeta = md[s];
        bestRank = k;
      }
    }
  }

  const aggTime = bestIo + shared;
  // NaN counts as a non-zero time here, as in C's `if (time)`.
  const aggPerf = aggTime !== 0 ? Number(bytesBig) / 1048576.0 / aggTime : 0;
  return {
    records: n,
    sharedRecords,
    totalBytes: bytes,
    totalBytesText: bytesBig.toString(),
    slowestRankIoTime: bestIo,
    slowestRankMetaOnlyTime: bestMeta,
    slowestRankRwOnlyTime: bestRw,
    slowestRank: bestRank,
    sharedTimeBySlowest: shared,
    aggTimeBySlowest: aggTime,
    aggPerfBySlowest: aggPerf,
    ranksBeyondNprocs: beyond,
  };
}

/** The estimate of one module, or null when the log has no records region for it (or it has no estimates). */
export function computeModulePerf(log: DarshanLog, moduleId: number): PerfEstimate | null {
  const mod = PERF_MODULES.find((m) => m.id === moduleId);
  if (!mod) return null;
  const res = log.decode<FixedTable>(moduleId);
  if (!res) return null;
  return {
    module: mod.name,
    moduleId,
    ...computeTablePerf(res.table, log.job.nprocs),
    partial: log.isPartial(moduleId),
    decodeError: res.error,
  };
}

/** Estimates for every module of the log that has them (POSIX, MPI-IO, STDIO, DFS, DAOS), in module-id order. */
export function computePerf(log: DarshanLog): PerfEstimate[] {
  const out: PerfEstimate[] = [];
  for (const m of PERF_MODULES) {
    const e = computeModulePerf(log, m.id);
    if (e) out.push(e);
  }
  return out;
}
