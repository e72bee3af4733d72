import type { JobFact, PosixFilesFact, RankBytesFact } from '../../facts/types.js';
import { TimeModelBuilder, type TimeModel } from '../../facts/time-model.js';

/** A job fact for hand-made cases. */
export function jobFact(processes: number, seconds = 10): JobFact {
  return { jobId: '1', exe: 'app', command: 'app', uid: '0', startSeconds: 0, endSeconds: seconds, runSeconds: seconds, processes, darshanVersion: '3.41', metadata: [] };
}

type PosixFileValues = { [K in keyof Omit<PosixFilesFact, 'ids'>]?: number };

/**
 * `posix.files` with one row per given file: every counter 0 unless set (the shared-record extremes NaN, the slowest
 * rank −1, the alignment 4096). Ids are 1, 2, … in order.
 */
export function posixFiles(...files: PosixFileValues[]): PosixFilesFact {
  const col = (k: keyof PosixFileValues, fill: number) => Float64Array.from(files, (f) => f[k] ?? fill);
  return {
    ids: BigUint64Array.from(files, (_f, i) => BigInt(i + 1)),
    shared: col('shared', 0),
    rankRecords: col('rankRecords', 1),
    opens: col('opens', 0),
    stats: col('stats', 0),
    reads: col('reads', 0),
    writes: col('writes', 0),
    syncs: col('syncs', 0),
    rwSwitches: col('rwSwitches', 0),
    bytesRead: col('bytesRead', 0),
    bytesWritten: col('bytesWritten', 0),
    extent: col('extent', 0),
    consecReads: col('consecReads', 0),
    consecWrites: col('consecWrites', 0),
    seqReads: col('seqReads', 0),
    seqWrites: col('seqWrites', 0),
    stridedOps: col('stridedOps', 0),
    notAligned: col('notAligned', 0),
    alignment: col('alignment', 4096),
    subBlockOps: col('subBlockOps', 0),
    smallReads: col('smallReads', 0),
    smallWrites: col('smallWrites', 0),
    smallReadBytes: col('smallReadBytes', 0),
    smallWriteBytes: col('smallWriteBytes', 0),
    readTime: col('readTime', 0),
    writeTime: col('writeTime', 0),
    metaTime: col('metaTime', 0),
    slowestRank: col('slowestRank', -1),
    slowestRankBytes: col('slowestRankBytes', NaN),
    fastestRankBytes: col('fastestRankBytes', NaN),
    slowestRankTime: col('slowestRankTime', NaN),
    fastestRankTime: col('fastestRankTime', NaN),
  };
}

/** `io.rankBytes` from per-rank byte counts. */
export function rankBytes(bytes: number[]): RankBytesFact {
  return { nprocs: bytes.length, bytes: Float64Array.from(bytes), total: bytes.reduce((a, b) => a + b, 0) };
}

/**
 * The time model of hand-made POSIX files (`io.time`): each file a POSIX record (shared ones by all `processes`
 * ranks, the others rank 0's), with its read, write and metadata time; `syncs` files' write time counts as sync when
 * `split` (as DXT separates it).
 */
export function posixModel(p: PosixFilesFact, processes = 1, runTime = 10, split = false): TimeModel {
  const b = new TimeModelBuilder();
  for (let i = 0; i < p.ids.length; i++) {
    const sync = split && p.syncs[i] > 0;
    b.add(p.ids[i], p.shared[i] ? -1 : 0, 'POSIX', { read: p.readTime[i], write: sync ? 0 : p.writeTime[i], sync: sync ? p.writeTime[i] : 0, metadata: p.metaTime[i] });
  }
  return b.build({ runTime, processes, source: 'counters' });
}
