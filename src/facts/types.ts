import type { AccessSizeHistogram, DxtSegments, ModuleFiles, ModuleOperations } from '../contract/charts.js';
import type { DataCompleteness, IoSummary } from '../contract/report.js';
import type { LayerWork } from '../contract/comparison.js';
import type { IdGroups } from './group.js';
import type { TimeModel } from './time-model.js';

/** `job`: identity and banner facts from the job record. */
export interface JobFact {
  readonly jobId: string;
  /** First whitespace-separated token of the command line ('' when there is none). */
  readonly exe: string;
  readonly command: string;
  readonly uid: string;
  /** Seconds since 1970, with the nanoseconds Darshan 3.41+ records. */
  readonly startSeconds: number;
  readonly endSeconds: number;
  /** darshan-parser's `run time`: end − start with nanoseconds (3.41+), else end − start + 1. */
  readonly runSeconds: number;
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

/** `posix.files`: POSIX counters per file (all records of the file summed), ids ascending. NaN/−1 = no shared record. */
export interface PosixFilesFact {
  readonly ids: BigUint64Array;
  /** 1 when the file has a shared record (rank −1). */
  readonly shared: Float64Array;
  /** Number of per-rank (non-shared) records. */
  readonly rankRecords: Float64Array;
  readonly opens: Float64Array;
  readonly stats: Float64Array;
  readonly reads: Float64Array;
  readonly writes: Float64Array;
  /** fsync + fdatasync calls. */
  readonly syncs: Float64Array;
  readonly rwSwitches: Float64Array;
  readonly bytesRead: Float64Array;
  readonly bytesWritten: Float64Array;
  /** Highest byte touched + 1 (the file's extent as far as this job saw it). */
  readonly extent: Float64Array;
  readonly consecReads: Float64Array;
  readonly consecWrites: Float64Array;
  readonly seqReads: Float64Array;
  readonly seqWrites: Float64Array;
  /** Accesses counted in the four common strides with a non-zero stride. */
  readonly stridedOps: Float64Array;
  readonly notAligned: Float64Array;
  readonly alignment: Float64Array;
  /** Requests smaller than the file alignment (estimate from bins and common access sizes). */
  readonly subBlockOps: Float64Array;
  /** Requests strictly below 1 MiB (bins refined with common access sizes). */
  readonly smallReads: Float64Array;
  readonly smallWrites: Float64Array;
  /** Bytes carried by requests below 1 MiB, a lower bound (common access sizes exact, other requests their bin's lower edge). */
  readonly smallReadBytes: Float64Array;
  readonly smallWriteBytes: Float64Array;
  readonly readTime: Float64Array;
  readonly writeTime: Float64Array;
  readonly metaTime: Float64Array;
  readonly slowestRank: Float64Array;
  readonly slowestRankBytes: Float64Array;
  readonly fastestRankBytes: Float64Array;
  readonly slowestRankTime: Float64Array;
  readonly fastestRankTime: Float64Array;
}

/** `mpiio.files`: MPI-IO counters per file, ids ascending. */
export interface MpiioFilesFact {
  readonly ids: BigUint64Array;
  readonly shared: Float64Array;
  readonly indepReads: Float64Array;
  readonly indepWrites: Float64Array;
  readonly collReads: Float64Array;
  readonly collWrites: Float64Array;
  readonly nbReads: Float64Array;
  readonly nbWrites: Float64Array;
  readonly splitReads: Float64Array;
  readonly splitWrites: Float64Array;
  readonly views: Float64Array;
  readonly rwSwitches: Float64Array;
  readonly bytesRead: Float64Array;
  readonly bytesWritten: Float64Array;
  readonly smallReads: Float64Array;
  readonly smallWrites: Float64Array;
  /** Bytes carried by requests below 1 MiB, a lower bound (as in `posix.files`). */
  readonly smallReadBytes: Float64Array;
  readonly smallWriteBytes: Float64Array;
  readonly readTime: Float64Array;
  readonly writeTime: Float64Array;
  readonly metaTime: Float64Array;
  readonly slowestRankBytes: Float64Array;
  readonly fastestRankBytes: Float64Array;
}

/** `stdio.files`: STDIO counters per file, standard streams left out. */
export interface StdioFilesFact {
  readonly ids: BigUint64Array;
  readonly opens: Float64Array;
  readonly reads: Float64Array;
  readonly writes: Float64Array;
  /** fseek/rewind calls (and the position set at open). */
  readonly seeks: Float64Array;
  /** fflush calls. */
  readonly flushes: Float64Array;
  readonly bytesRead: Float64Array;
  readonly bytesWritten: Float64Array;
  /** Highest byte read or written + 1 (0 when nothing moved). */
  readonly extent: Float64Array;
  readonly readTime: Float64Array;
  readonly writeTime: Float64Array;
  readonly metaTime: Float64Array;
}

/** `hl.files`: HDF5 dataset / PnetCDF variable counters per file. */
export interface HlFilesFact {
  readonly ids: BigUint64Array;
  readonly layers: readonly ('HDF5' | 'PnetCDF')[];
  /** Distinct datasets (variables) of the file. */
  readonly datasets: Float64Array;
  readonly reads: Float64Array;
  readonly writes: Float64Array;
  readonly bytesRead: Float64Array;
  readonly bytesWritten: Float64Array;
  readonly smallReads: Float64Array;
  readonly smallWrites: Float64Array;
  readonly independentOps: Float64Array;
  readonly collectiveOps: Float64Array;
}

/** `io.rankBytes`: bytes moved per rank at the application's layer. */
export interface RankBytesFact {
  readonly nprocs: number;
  readonly bytes: Float64Array;
  readonly total: number;
}

/** `io.sharedRankBytes`: bytes per rank on the shared files of the application's layer (HEATMAP less per-rank records). */
export interface SharedRankBytesFact {
  readonly layer: 'MPI-IO' | 'POSIX';
  readonly nprocs: number;
  /** Bytes each rank read and wrote on the layer's shared records. */
  readonly bytes: Float64Array;
  /** Bytes of the layer's shared records (the sum of `bytes`, within 1 %). */
  readonly total: number;
  /** Record ids of the layer's shared files, ascending. */
  readonly ids: BigUint64Array;
}

/** Traced write calls of a DXT module: count and summed duration per record (`id:rank`) and per file (`id`). */
export interface DxtWrites {
  readonly byRecord: Map<string, { writes: number; seconds: number }>;
  readonly byFile: Map<bigint, { writes: number; seconds: number }>;
}

/** `dxt.writes`: the DXT modules whose layer synced, each with its traced write calls. */
export interface DxtWritesFact {
  readonly DXT_POSIX?: DxtWrites;
  readonly DXT_MPIIO?: DxtWrites;
}

/** `dxt.posixRanks`: per DXT_POSIX record (file × rank), in table order. */
export interface DxtPosixRanksFact {
  readonly ids: BigUint64Array;
  readonly ranks: Float64Array;
  readonly ops: Float64Array;
  readonly busySeconds: Float64Array;
  readonly spanSeconds: Float64Array;
  readonly consecutive: Float64Array;
  readonly forwardGaps: Float64Array;
  readonly regularGaps: Float64Array;
  readonly backwardGaps: Float64Array;
  /** Requests at least as long as the file's alignment (Lustre stripe size when known, else POSIX_FILE_ALIGNMENT). */
  readonly largeOps: Float64Array;
  /** Of those, requests whose offset is not a multiple of the alignment. */
  readonly misalignedLargeOps: Float64Array;
  /** The alignment used for the record's file. */
  readonly alignment: Float64Array;
  /** End of the record's last traced request, in seconds from the job start. */
  readonly lastEndSeconds: Float64Array;
  /** Median duration of one traced call. */
  readonly medianCallSeconds: Float64Array;
}

/** `lustre.stripes`: stripe layout per Lustre file (first component), in log order. */
export interface LustreStripesFact {
  readonly ids: BigUint64Array;
  readonly stripeSize: Float64Array;
  readonly stripeCount: Float64Array;
  /** 1 when the file has a layout component (size and count are 0 otherwise). */
  readonly hasLayout: Uint8Array;
}

/** `heatmap.timeline`: bytes per time bin over all ranks, per instrumented layer. */
export interface HeatmapTimelineFact {
  readonly binSeconds: number;
  /** Layer name (POSIX, MPIIO, STDIO) → bytes read + written per bin, summed over ranks. */
  readonly layers: readonly { readonly layer: string; readonly bytes: Float64Array; readonly activeRanks: Float64Array }[];
}

/** `hl.opens`: HDF5 / PnetCDF file opens and metadata seconds per file. */
export interface HlOpensFact {
  readonly ids: BigUint64Array;
  readonly layers: readonly ('HDF5' | 'PnetCDF')[];
  readonly opens: Float64Array;
  readonly metaSeconds: Float64Array;
}

/** One module's entry of `modules.totals`: its work (`files` are distinct record ids), record count and times. */
export interface ModuleTotals extends Omit<LayerWork, 'layer'> {
  /** Column prefix in the job store (`posix`, `mpiio`, `h5d` …). */
  readonly key: string;
  /** Interface label (POSIX, MPI-IO, STDIO, HDF5, PnetCDF, DFS, DAOS). */
  readonly iface: string;
  readonly records: number;
  readonly readTime: number;
  readonly writeTime: number;
  readonly metaTime: number;
}

/** `modules.totals`: job totals of every fixed-size module present, −1 counted as 0. */
export interface ModulesTotalsFact {
  readonly modules: readonly ModuleTotals[];
}

/** `log`: facts about the log file itself. */
export interface LogInfoFact {
  readonly formatVersion: string;
  readonly compression: string;
  /** Darshan runtime version (metadata `lib_ver`), or null. */
  readonly runtimeVersion: string | null;
  /** Job metadata key/value pairs, UTF-8 decoded, in log order. */
  readonly metadata: readonly (readonly [string, string])[];
  /** Modules the runtime flagged partial (it ran out of memory for records). */
  readonly partialModules: readonly string[];
  /** `MODULE: message` for every region that did not decode completely. */
  readonly decodeErrors: readonly string[];
  /** File-system types of the mounts POSIX files live on, sorted. */
  readonly fsTypes: readonly string[];
}

/** `posix.counterTotals`: job totals of POSIX counters for the feature sets. */
export interface PosixCounterTotalsFact {
  /** Counter name → job total (sums skip −1; alignments are maxima; STRIDE/ACCESS1..4 are the job's top four). */
  readonly counters: Readonly<Record<string, number>>;
  /** Distinct files (record ids) and their categories. */
  readonly files: { readonly total: number; readonly readOnly: number; readonly writeOnly: number; readonly readWrite: number; readonly shared: number; readonly unique: number };
}

/** `io.summary` and `completeness` are the report's own sections, derived once here (src/contract/report.ts). */
export type { LayerIo, ModuleCompleteness } from '../contract/report.js';
/** `io.summary`: the job's I/O against its run time. */
export type IoSummaryFact = IoSummary;
/** `completeness`: what the log is missing. */
export type CompletenessFact = DataCompleteness;

/** `modules.operations`: operation counts per module (PyDarshan's order). */
export interface ModuleOperationsFact {
  readonly modules: readonly ModuleOperations[];
}

/** `modules.accessSizes`: requests per Darshan access-size bin, per module. */
export interface AccessSizesFact {
  readonly modules: readonly AccessSizeHistogram[];
}

/** `modules.files`: files per module by use, bytes, and sizes per FILE_SIZE_BINS bin. */
export interface ModuleFilesFact {
  readonly modules: readonly ModuleFiles[];
}

/** `heatmap.series`: HEATMAP per layer, reads and writes per bin and a rank × bin matrix. */
export interface HeatmapSeriesFact {
  readonly binSeconds: number;
  readonly layers: readonly {
    readonly layer: string;
    readonly read: Float64Array;
    readonly write: Float64Array;
    readonly activeRanks: Float64Array;
    readonly ranksPerRow: number;
    readonly matrix: readonly Float64Array[];
  }[];
}

/** `dxt.segments`: DXT segments per module, capped for plotting (the report's `charts.dxt` less `shown`). */
export interface DxtSegmentsFact {
  readonly modules: readonly Omit<DxtSegments, 'shown'>[];
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
  'posix.files': PosixFilesFact;
  'mpiio.files': MpiioFilesFact;
  'stdio.files': StdioFilesFact;
  'hl.files': HlFilesFact;
  'io.rankBytes': RankBytesFact;
  'io.sharedRankBytes': SharedRankBytesFact;
  'dxt.posixRanks': DxtPosixRanksFact;
  'dxt.writes': DxtWritesFact;
  'lustre.stripes': LustreStripesFact;
  'heatmap.timeline': HeatmapTimelineFact;
  'hl.opens': HlOpensFact;
  'modules.totals': ModulesTotalsFact;
  log: LogInfoFact;
  'posix.counterTotals': PosixCounterTotalsFact;
  'io.summary': IoSummaryFact;
  'io.time': TimeModel;
  'storage.targets': StorageTargetsFact;
  completeness: CompletenessFact;
  'modules.operations': ModuleOperationsFact;
  'modules.accessSizes': AccessSizesFact;
  'modules.files': ModuleFilesFact;
  'heatmap.series': HeatmapSeriesFact;
  'dxt.segments': DxtSegmentsFact;
}

export type FactName = keyof FactValues;
export type { IdGroups };

/**
 * `storage.targets`: where each file's bytes went and how fast. Targets are Lustre OSTs (from the LUSTRE module:
 * each file's layout components, stripe size and count, and OST ids); without a LUSTRE module the placement is
 * unknown and each file written by one rank is its own target (`kind: 'file'`). A file's bytes are split over the OSTs
 * of the components its extent covers, evenly within a component; its data seconds (read, write and sync time of the
 * one time model) likewise.
 */
export interface StorageTargetsFact {
  readonly kind: 'ost' | 'file';
  /** Per file with data moved and a layout (kind `ost`) or one rank (kind `file`), in log order. */
  readonly files: {
    readonly ids: BigUint64Array;
    /** The one rank that accessed the file, or −1 (shared, or several ranks). */
    readonly rank: Int32Array;
    /** Ranks that accessed it. */
    readonly ranks: Float64Array;
    /** POSIX bytes read + written. */
    readonly bytes: Float64Array;
    readonly bytesWritten: Float64Array;
    /** POSIX read + write requests. */
    readonly requests: Float64Array;
    /** Data seconds (read, write, sync) summed over ranks, from the time model. */
    readonly seconds: Float64Array;
    /** The slowest rank's data seconds on the file (the model's slowest-rank time, its data share). */
    readonly slowest: Float64Array;
    /** First layout component's stripe size and count (0 for kind `file`). */
    readonly stripeSize: Float64Array;
    readonly stripeCount: Float64Array;
    /** The file's targets: `targetOf[targetStart[i] .. targetStart[i] + targetCount[i])` index `targets`. */
    readonly targetStart: Int32Array;
    readonly targetCount: Int32Array;
    /** Share of the file's bytes each of its targets holds, parallel to `targetOf`. */
    readonly targetOf: Int32Array;
    readonly targetShare: Float64Array;
    /** Share of the file's data seconds spent on each target (DXT-mapped files; else the bytes' share). */
    readonly targetTimeShare: Float64Array;
    /** The file's bandwidth on each target, bytes/s: DXT requests on that target alone, else its bytes there over its seconds there. */
    readonly targetBandwidth: Float64Array;
    /** 1 when the file's split over its targets comes from DXT offsets, 0 from its layout alone. */
    readonly dxtMapped: Uint8Array;
  };
  /** Per target, ascending by id. */
  readonly targets: {
    /** OST index (kind `ost`), or the file's row in `files` (kind `file`). */
    readonly ids: Float64Array;
    /** Files with bytes on it. */
    readonly files: Float64Array;
    readonly bytes: Float64Array;
    /** Data seconds summed over ranks (the files' seconds by their share on the target). */
    readonly seconds: Float64Array;
    /** The slowest rank's data seconds on it (per-rank sums of its files' shares; shared files' slowest rank). */
    readonly slowestSeconds: Float64Array;
    /** bytes / seconds (0 when no time). */
    readonly bandwidth: Float64Array;
    /** Median bandwidth of its files on it (each file's bytes there / its data seconds there). */
    readonly medianFileBandwidth: Float64Array;
  };
  /** The file system type of the files (the most common mount type), or '' when the log has no mounts. */
  readonly fsType: string;
  /** The mount point most of the files live under ('' when unknown): OST ids are per file system. */
  readonly mount: string;
}
