import type { IdGroups } from './group.js';

/** `job`: identity and banner facts from the job record. */
export interface JobFact {
  readonly jobId: string;
  /** First whitespace-separated token of the command line ('' when there is none). */
  readonly exe: string;
  readonly command: string;
  readonly uid: string;
  readonly startSeconds: number;
  readonly endSeconds: number;
  readonly processes: number;
  readonly darshanVersion: string;
  readonly metadata: readonly (readonly [string, string])[];
}

/** `modules`: names of the modules with data in the log, in id order. */
export interface ModulesFact {
  readonly names: readonly string[];
}

/** `files.counts`: the banner's file counts. */
export interface FileCountsFact {
  /** Name records in the log. */
  readonly total: number;
  readonly stdio: number;
  readonly posix: number;
  readonly mpiio: number;
}

/** `stdio.totals` */
export interface StdioTotalsFact {
  readonly records: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
}

/** `posix.totals`: sums (and maxima) over every POSIX record. */
export interface PosixTotalsFact {
  readonly records: number;
  readonly reads: number;
  readonly writes: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  /** Requests in the histogram bins up to 1 MiB (inclusive). */
  readonly smallReads: number;
  readonly smallWrites: number;
  readonly memNotAligned: number;
  readonly fileNotAligned: number;
  readonly consecReads: number;
  readonly seqReads: number;
  readonly consecWrites: number;
  readonly seqWrites: number;
  /** Largest POSIX_MAX_BYTE_READ / _WRITTEN over all records (−Infinity without records). */
  readonly maxByteReadMax: number;
  readonly maxByteWrittenMax: number;
}

/** `posix.byFile`: every POSIX record grouped by file id (ranks summed), ids ascending. */
export interface PosixByFileFact {
  readonly ids: BigUint64Array;
  readonly reads: Float64Array;
  readonly writes: Float64Array;
  readonly smallReads: Float64Array;
  readonly smallWrites: Float64Array;
  readonly bytesRead: Float64Array;
  readonly bytesWritten: Float64Array;
  readonly maxByteRead: Float64Array;
  readonly maxByteWritten: Float64Array;
}

/** `posix.rankSpread`: per-rank (non-shared) records grouped by file id, ids ascending. */
export interface PosixRankSpreadFact {
  readonly ids: BigUint64Array;
  readonly ranks: Float64Array;
  readonly bytesWrittenMin: Float64Array;
  readonly bytesWrittenMax: Float64Array;
  readonly bytesReadMin: Float64Array;
  readonly bytesReadMax: Float64Array;
}

/** `posix.shared`: Darshan's shared-file records (rank −1), in log order. */
export interface PosixSharedFact {
  readonly ids: BigUint64Array;
  readonly reads: number;
  readonly writes: number;
  readonly smallReads: number;
  readonly smallWrites: number;
  readonly smallReadsPerRecord: Float64Array;
  readonly smallWritesPerRecord: Float64Array;
  /** |slowest − fastest rank bytes| / (bytes read + written); NaN when no bytes moved. */
  readonly dataImbalance: Float64Array;
  /** |slowest − fastest rank time| / (read + write + meta time); NaN when no time was spent. */
  readonly timeImbalance: Float64Array;
}

/** `posix.metaTime`: metadata time per record, with the record's rank (−1 = shared). */
export interface PosixMetaTimeFact {
  readonly metaTime: Float64Array;
  readonly ranks: Float64Array;
  readonly ids: BigUint64Array;
}

/** `mpiio.totals` */
export interface MpiioTotalsFact {
  readonly records: number;
  readonly indepReads: number;
  readonly indepWrites: number;
  readonly collReads: number;
  readonly collWrites: number;
  readonly nbReads: number;
  readonly nbWrites: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
}

/** `mpiio.records`: per-record independent counts (log order) and the same grouped by file. */
export interface MpiioRecordsFact {
  readonly ids: BigUint64Array;
  readonly ranks: Float64Array;
  readonly indepReads: Float64Array;
  readonly indepWrites: Float64Array;
  readonly byFile: {
    readonly ids: BigUint64Array;
    readonly indepReads: Float64Array;
    readonly indepWrites: Float64Array;
    readonly collReads: Float64Array;
    readonly collWrites: Float64Array;
  };
}

/** `hints`: the `h` job metadata (Darshan's own MPI-IO hints for writing the log). */
export interface HintsFact {
  readonly raw: string | null;
  readonly entries: readonly (readonly [string, string])[];
  /** A part without `=` (e.g. `h=no`), on which Drishti crashes. */
  readonly malformed: readonly string[];
}

/** `hdf5`: whether the job used HDF5. */
export interface Hdf5Fact {
  readonly h5f: boolean;
  readonly h5d: boolean;
  /** Some MPI-IO record's file name ends in `.h5` or `.hdf5`. */
  readonly mpiioHdf5Name: boolean;
}

/** `lustre`: whether the log has Lustre striping records. */
export interface LustreFact {
  readonly records: number;
}

/** Every fact, by name. */
export interface FactValues {
  job: JobFact;
  modules: ModulesFact;
  'files.counts': FileCountsFact;
  'stdio.totals': StdioTotalsFact;
  'posix.totals': PosixTotalsFact;
  'posix.byFile': PosixByFileFact;
  'posix.rankSpread': PosixRankSpreadFact;
  'posix.shared': PosixSharedFact;
  'posix.metaTime': PosixMetaTimeFact;
  'mpiio.totals': MpiioTotalsFact;
  'mpiio.records': MpiioRecordsFact;
  hints: HintsFact;
  hdf5: Hdf5Fact;
  lustre: LustreFact;
}

export type FactName = keyof FactValues;
export type { IdGroups };
