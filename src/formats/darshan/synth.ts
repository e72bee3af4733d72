import { Int64Block } from './int64-block.js';
import { FixedTable } from './modules/fixed-codec.js';
import type { DxtTable } from './modules/dxt.js';
import { LUSTRE_COMPONENT_COUNTERS, type LustreTable } from './modules/lustre.js';
import { I64List } from './modules/columns.js';
import { POSIX_FLOAT_COUNTERS, POSIX_INT_COUNTERS } from './modules/counters/posix.js';
import { MPI_IO_FLOAT_COUNTERS, MPI_IO_INT_COUNTERS } from './modules/counters/mpi-io.js';
import { STDIO_FLOAT_COUNTERS, STDIO_INT_COUNTERS } from './modules/counters/stdio.js';
import { darshanRecordId } from './record-id.js';
import type { LogInput, ModuleInput } from './writer.js';
import { rng } from '../../util/random.js';

/** What a synthetic log should contain. */
export interface SynthOptions {
  /** Seed of the deterministic generator: the same options give the same bytes. */
  readonly seed?: number;
  readonly nprocs?: number;
  /** POSIX file records (one per file, owned by one rank, plus shared files). */
  readonly posixFiles?: number;
  /** Shared files among `posixFiles`, accessed by all ranks (rank -1 records). */
  readonly sharedFiles?: number;
  /** Also write MPI-IO records for the shared files. */
  readonly mpiio?: boolean;
  /** Also write a STDIO record (stdout). */
  readonly stdio?: boolean;
  /** DXT_POSIX segments in all, spread over files and ranks. */
  readonly dxtSegments?: number;
  /** Typical access size in bytes (requests vary around it). */
  readonly accessBytes?: number;
  readonly jobid?: number;
  readonly startTime?: number;
  readonly runSeconds?: number;
  readonly exe?: string;
  /** Write a LUSTRE record per POSIX file over OSTs 0 … n−1 (0: none): files of one rank one stripe each, round robin. */
  readonly lustreOsts?: number;
  /** Stripe count of the shared files (default min(4, OSTs)). */
  readonly stripeCount?: number;
  /** Stripe size in bytes (default 1 MiB). */
  readonly stripeSize?: number;
  /** OSTs whose files run `slowFactor` times slower (their read and write time). */
  readonly slowOsts?: readonly number[];
  /** How many times slower a slow OST's files are (default 20). */
  readonly slowFactor?: number;
  /** OSTs whose files issue requests 64 times smaller and run `slowFactor` times slower (slow for what they do). */
  readonly smallRequestOsts?: readonly number[];
}

/** A small, fast, seedable PRNG (mulberry32). */
const SIZE_BINS = [100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824, Infinity];

function sizeBin(bytes: number): number {
  return SIZE_BINS.findIndex((hi) => bytes <= hi);
}

function makeFixed<I extends string, F extends string>(module: string, id: number, version: number, intNames: readonly I[], floatNames: readonly F[], n: number) {
  const ints = new Int64Block(n, intNames.length);
  const floats = new Float64Array(n * floatNames.length);
  const ranks = new Int64Block(n, 1);
  const ids = new BigUint64Array(n);
  const table = new FixedTable<I, F>(module, id, version, n, ids, ranks, intNames, floatNames, ints, floats, null, null);
  const ic = new Map(intNames.map((x, i) => [x, i]));
  const fc = new Map(floatNames.map((x, i) => [x, i]));
  return {
    table,
    setInt: (r: number, name: I, v: number) => (ints.data[ic.get(name)! * n + r] = Math.round(v)),
    setFloat: (r: number, name: F, v: number) => (floats[fc.get(name)! * n + r] = v),
    row: (r: number, recId: bigint, rank: number) => {
      ids[r] = recId;
      ranks.setExact(0, r, BigInt(rank));
    },
  };
}

/**
 * Builds a plausible synthetic job: POSIX records with consistent counters (operation counts, bytes, size
 * histograms, timestamps), optionally MPI-IO and STDIO records and a DXT_POSIX trace. For benchmarks and tests of
 * everything downstream of the reader; the result goes to `writeLog`.
 */
export function synthesizeLog(opts: SynthOptions = {}): LogInput {
  const rand = rng(opts.seed ?? 1);
  const nprocs = opts.nprocs ?? 4;
  const nFiles = opts.posixFiles ?? 8;
  const nShared = Math.min(opts.sharedFiles ?? (nFiles > 0 ? 1 : 0), nFiles);
  const access = opts.accessBytes ?? 1 << 20;
  const run = opts.runSeconds ?? 60;
  const start = opts.startTime ?? 1_700_000_000;
  const names: [bigint, string][] = [];
  const fileIds: bigint[] = [];
  for (let i = 0; i < nFiles; i++) {
    const name = i < nShared ? `/lustre/scratch/synth/shared.${i}.dat` : `/lustre/scratch/synth/rank${(i - nShared) % nprocs}/out.${i}.dat`;
    const id = darshanRecordId(name);
    names.push([id, name]);
    fileIds.push(id);
  }
  const modules: ModuleInput[] = [];
  // Lustre placement: each file's OSTs (shared files `stripeCount` of them, the others one), round robin.
  const nOst = opts.lustreOsts ?? 0;
  const stripes = (r: number) => (r < nShared ? Math.max(1, Math.min(opts.stripeCount ?? 4, nOst)) : 1);
  const ostsOf: number[][] = [];
  for (let r = 0, next = 0; r < nFiles && nOst > 0; r++) {
    const o: number[] = [];
    for (let k = 0; k < stripes(r); k++) o.push(next++ % nOst);
    ostsOf.push(o);
  }
  const onAny = (r: number, set: readonly number[] | undefined) => !!set && nOst > 0 && ostsOf[r].some((o) => set.includes(o));
  // The last close: a job whose files take longer than `runSeconds` (slow OSTs) runs until then.
  let lastEnd = 0;
  const P = makeFixed('POSIX', 1, 4, POSIX_INT_COUNTERS, POSIX_FLOAT_COUNTERS, nFiles);
  for (let r = 0; r < nFiles; r++) {
    const shared = r < nShared;
    P.row(r, fileIds[r], shared ? -1 : (r - nShared) % nprocs);
    let writes = 1 + Math.floor(rand() * 64);
    let reads = rand() < 0.5 ? Math.floor(rand() * 64) : 0;
    const small = onAny(r, opts.smallRequestOsts);
    const slowBy = small || onAny(r, opts.slowOsts) ? (opts.slowFactor ?? 20) : 1;
    const drawn = Math.max(1, Math.round(access * (0.25 + rand() * 1.5)));
    // Small requests on the same bytes: 64 times as many requests of a 64th the size.
    const size = small ? Math.max(1, Math.round(drawn / 64)) : drawn;
    if (small) {
      writes *= 64;
      reads *= 64;
    }
    const wBytes = writes * size;
    const rBytes = reads * size;
    const opens = shared ? nprocs : 1;
    P.setInt(r, 'POSIX_OPENS', opens);
    P.setInt(r, 'POSIX_FILENOS', 0);
    P.setInt(r, 'POSIX_DUPS', 0);
    P.setInt(r, 'POSIX_READS', reads);
    P.setInt(r, 'POSIX_WRITES', writes);
    P.setInt(r, 'POSIX_SEEKS', Math.floor(rand() * 4));
    P.setInt(r, 'POSIX_STATS', Math.floor(rand() * 3));
    P.setInt(r, 'POSIX_FSYNCS', rand() < 0.1 ? writes : 0);
    P.setInt(r, 'POSIX_MODE', 436);
    P.setInt(r, 'POSIX_BYTES_READ', rBytes);
    P.setInt(r, 'POSIX_BYTES_WRITTEN', wBytes);
    P.setInt(r, 'POSIX_MAX_BYTE_READ', rBytes ? rBytes - 1 : 0);
    P.setInt(r, 'POSIX_MAX_BYTE_WRITTEN', wBytes - 1);
    P.setInt(r, 'POSIX_CONSEC_READS', Math.max(0, reads - 1));
    P.setInt(r, 'POSIX_CONSEC_WRITES', writes - 1);
    P.setInt(r, 'POSIX_SEQ_READS', Math.max(0, reads - 1));
    P.setInt(r, 'POSIX_SEQ_WRITES', writes - 1);
    P.setInt(r, 'POSIX_RW_SWITCHES', reads ? 1 : 0);
    P.setInt(r, 'POSIX_MEM_ALIGNMENT', 8);
    P.setInt(r, 'POSIX_FILE_ALIGNMENT', 1048576);
    P.setInt(r, 'POSIX_FILE_NOT_ALIGNED', size % 1048576 ? writes + reads : 0);
    P.setInt(r, 'POSIX_MAX_READ_TIME_SIZE', reads ? size : 0);
    P.setInt(r, 'POSIX_MAX_WRITE_TIME_SIZE', size);
    const bin = sizeBin(size);
    P.setInt(r, POSIX_INT_COUNTERS[POSIX_INT_COUNTERS.indexOf('POSIX_SIZE_READ_0_100') + bin], reads);
    P.setInt(r, POSIX_INT_COUNTERS[POSIX_INT_COUNTERS.indexOf('POSIX_SIZE_WRITE_0_100') + bin], writes);
    P.setInt(r, 'POSIX_ACCESS1_ACCESS', size);
    P.setInt(r, 'POSIX_ACCESS1_COUNT', reads + writes);
    P.setInt(r, 'POSIX_STRIDE1_STRIDE', 0);
    P.setInt(r, 'POSIX_STRIDE1_COUNT', 0);
    const rank = shared ? 0 : (r - nShared) % nprocs;
    P.setInt(r, 'POSIX_FASTEST_RANK', rank);
    P.setInt(r, 'POSIX_FASTEST_RANK_BYTES', shared ? Math.round((wBytes + rBytes) / nprocs) : wBytes + rBytes);
    P.setInt(r, 'POSIX_SLOWEST_RANK', shared ? nprocs - 1 : rank);
    P.setInt(r, 'POSIX_SLOWEST_RANK_BYTES', shared ? Math.round((wBytes + rBytes) / nprocs) : wBytes + rBytes);
    const t0 = rand() * run * 0.5;
    const wTime = (slowBy * wBytes) / (200 + rand() * 2000) / 1048576;
    const rTime = (slowBy * rBytes) / (200 + rand() * 2000) / 1048576;
    const meta = 0.0005 * opens + rand() * 0.01;
    P.setFloat(r, 'POSIX_F_OPEN_START_TIMESTAMP', t0);
    P.setFloat(r, 'POSIX_F_OPEN_END_TIMESTAMP', t0 + meta / 2);
    P.setFloat(r, 'POSIX_F_WRITE_START_TIMESTAMP', t0 + meta / 2);
    P.setFloat(r, 'POSIX_F_WRITE_END_TIMESTAMP', t0 + meta / 2 + wTime);
    P.setFloat(r, 'POSIX_F_READ_START_TIMESTAMP', reads ? t0 + meta / 2 + wTime : 0);
    P.setFloat(r, 'POSIX_F_READ_END_TIMESTAMP', reads ? t0 + meta / 2 + wTime + rTime : 0);
    P.setFloat(r, 'POSIX_F_CLOSE_START_TIMESTAMP', t0 + meta / 2 + wTime + rTime);
    P.setFloat(r, 'POSIX_F_CLOSE_END_TIMESTAMP', t0 + meta + wTime + rTime);
    lastEnd = Math.max(lastEnd, t0 + meta + wTime + rTime);
    P.setFloat(r, 'POSIX_F_READ_TIME', rTime);
    P.setFloat(r, 'POSIX_F_WRITE_TIME', wTime);
    P.setFloat(r, 'POSIX_F_META_TIME', meta);
    P.setFloat(r, 'POSIX_F_MAX_READ_TIME', reads ? rTime / reads * 2 : 0);
    P.setFloat(r, 'POSIX_F_MAX_WRITE_TIME', wTime / writes * 2);
    P.setFloat(r, 'POSIX_F_FASTEST_RANK_TIME', shared ? (wTime + rTime + meta) / nprocs : wTime + rTime + meta);
    P.setFloat(r, 'POSIX_F_SLOWEST_RANK_TIME', shared ? (wTime + rTime + meta) / nprocs * 1.2 : wTime + rTime + meta);
  }
  if (nFiles > 0) modules.push({ id: 1, table: P.table });

  if (nOst > 0 && nFiles > 0) modules.push({ id: 8, table: synthLustre(fileIds, P.table.ranks, ostsOf, opts.stripeSize ?? 1 << 20) });

  if (opts.mpiio && nShared > 0) {
    const M = makeFixed('MPI-IO', 2, 3, MPI_IO_INT_COUNTERS, MPI_IO_FLOAT_COUNTERS, nShared);
    const pw = P.table.int('POSIX_WRITES');
    const pb = P.table.int('POSIX_BYTES_WRITTEN');
    const pt = P.table.float('POSIX_F_WRITE_TIME');
    for (let r = 0; r < nShared; r++) {
      M.row(r, fileIds[r], -1);
      M.setInt(r, 'MPIIO_COLL_OPENS', nprocs);
      M.setInt(r, 'MPIIO_COLL_WRITES', Math.max(1, Math.round(pw[r] / 4)));
      M.setInt(r, 'MPIIO_BYTES_WRITTEN', pb[r]);
      M.setInt(r, 'MPIIO_MODE', 9);
      M.setFloat(r, 'MPIIO_F_WRITE_TIME', pt[r] * 1.1);
      M.setFloat(r, 'MPIIO_F_META_TIME', 0.001 * nprocs);
    }
    modules.push({ id: 2, table: M.table });
  }
  if (opts.stdio ?? true) {
    const id = darshanRecordId('<STDOUT>');
    names.push([id, '<STDOUT>']);
    const S = makeFixed('STDIO', 9, 2, STDIO_INT_COUNTERS, STDIO_FLOAT_COUNTERS, 1);
    S.row(0, id, 0);
    S.setInt(0, 'STDIO_WRITES', 20 + Math.floor(rand() * 100));
    S.setInt(0, 'STDIO_BYTES_WRITTEN', 2000 + Math.floor(rand() * 8000));
    S.setFloat(0, 'STDIO_F_WRITE_TIME', 0.0005);
    modules.push({ id: 9, table: S.table });
  }
  // DXT requests on a slow OST's stripes take `slowFactor` times longer (the file's layout maps each offset).
  const stripeSize = opts.stripeSize ?? 1 << 20;
  const slowAt = nOst > 0 && opts.slowOsts?.length ? (file: number, offset: number) => (opts.slowOsts!.includes(ostsOf[file][Math.floor(offset / stripeSize) % ostsOf[file].length]) ? (opts.slowFactor ?? 20) : 1) : null;
  if ((opts.dxtSegments ?? 0) > 0) modules.push({ id: 10, table: synthDxt(opts.dxtSegments!, nprocs, fileIds, access, run, rand, slowAt) });
  const exe = opts.exe ?? `./synth_app --files ${nFiles}`;
  return {
    job: {
      uid: 1000,
      startTimeSec: start,
      startTimeNsec: 0,
      endTimeSec: start + Math.max(run, Math.ceil(lastEnd)),
      endTimeNsec: 0,
      nprocs,
      jobid: opts.jobid ?? 4242,
      metadata: [['lib_ver', '3.4.6']],
      exe,
      mounts: [
        { path: '/', fsType: 'ext4' },
        { path: '/lustre/scratch', fsType: 'lustre' },
      ],
    },
    names,
    modules,
  };
}

function synthDxt(total: number, nprocs: number, fileIds: bigint[], access: number, run: number, rand: () => number, slowAt: ((file: number, offset: number) => number) | null = null): DxtTable {
  // One record per (file, rank) pair, round robin, segments split evenly; writes then reads as stored.
  const nRec = Math.max(1, Math.min(fileIds.length || 1, 4096) * Math.min(nprocs, 8));
  const per = Math.floor(total / nRec);
  const extra = total - per * nRec;
  const ids = new BigUint64Array(nRec);
  const ranks = new Int64Block(nRec, 1);
  const hostnames: string[] = [];
  const writeCount = new Float64Array(nRec);
  const readCount = new Float64Array(nRec);
  const segStart = new Float64Array(nRec);
  const ol = new Int64Block(total, 2);
  const start = new Float64Array(total);
  const end = new Float64Array(total);
  const threads = new Int64Block(total, 1);
  let s = 0;
  for (let r = 0; r < nRec; r++) {
    const n = per + (r < extra ? 1 : 0);
    const rank = r % Math.min(nprocs, 8);
    const file = fileIds.length ? Math.floor(r / Math.min(nprocs, 8)) % fileIds.length : -1;
    ids[r] = file >= 0 ? fileIds[file] : 1n;
    ranks.setExact(0, r, BigInt(rank));
    hostnames.push(`nid${String(Math.floor(rank / 4)).padStart(5, '0')}`);
    const w = Math.ceil(n * 0.7);
    writeCount[r] = w;
    readCount[r] = n - w;
    segStart[r] = s;
    let t = rand() * run * 0.1;
    let off = 0;
    for (let k = 0; k < n; k++, s++) {
      if (k === w) off = 0;
      const len = Math.max(1, Math.round(access * (0.5 + rand())));
      ol.data[s] = off;
      ol.data[total + s] = len;
      const dt = (len / 1048576) * (0.0005 + rand() * 0.002) * (slowAt && file >= 0 ? slowAt(file, off) : 1);
      start[s] = t;
      end[s] = t + dt;
      t += dt + rand() * 0.0005;
      off += len;
      threads.data[s] = 139_900_000_000_000 + rank;
    }
  }
  return {
    kind: 'dxt', module: 'DXT_POSIX', moduleId: 10, version: 2, length: nRec, ids, ranks, hostnames, writeCount, readCount,
    segStart, segments: total, offsetLength: ol, start, end, threadIds: threads, hasThreadIds: true,
  };
}

/** LUSTRE records (format v2, one component each) for the files, with their OSTs. */
function synthLustre(fileIds: bigint[], ranks: Int64Block, ostsOf: number[][], stripeSize: number): LustreTable {
  const n = fileIds.length;
  const osts = new I64List();
  const ostStart = new Int32Array(n), ostCount = new Int32Array(n), componentStart = new Int32Array(n);
  const components = new Int64Block(n, LUSTRE_COMPONENT_COUNTERS.length);
  const numComponents = new Int64Block(n, 1), numStripes = new Int64Block(n, 1), rankCol = new Int64Block(n, 1);
  for (let r = 0; r < n; r++) {
    rankCol.setExact(0, r, ranks.exact(0, r));
    numComponents.setExact(0, r, 1n);
    numStripes.setExact(0, r, BigInt(ostsOf[r].length));
    componentStart[r] = r;
    // stripe size, count, pattern (raid0), flags (none), extent [0, EOF), mirror id (none)
    [stripeSize, ostsOf[r].length, 0, 0, 0, -1, -1].forEach((v, k) => components.setExact(k, r, BigInt(v)));
    ostStart[r] = osts.length;
    ostCount[r] = ostsOf[r].length;
    for (const o of ostsOf[r]) osts.push(BigInt(o));
  }
  return {
    kind: 'lustre', module: 'LUSTRE', moduleId: 8, version: 2, length: n, ids: BigUint64Array.from(fileIds), ranks: rankCol,
    numComponents, numStripes, componentStart, components, poolNames: Array.from({ length: n }, () => ''), ostStart, ostCount, osts,
  };
}
