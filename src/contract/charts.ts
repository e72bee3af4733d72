/**
 * The `charts` section of a report: the numbers behind every plot of the job page and of `report --html` (PyDarshan's
 * summary plots and DXT Explorer's timelines), computed by the pipeline from facts so that renderers and the web
 * pages read them from the report JSON alone. Optional (`iolens report --charts`, implied by `--html`, always on the
 * web service); additive to schema 2.
 */

/** Darshan's access-size histogram bins (request bytes; each bin's upper bound is inclusive). */
export const ACCESS_SIZE_BINS = ['0-100', '100-1K', '1K-10K', '10K-100K', '100K-1M', '1M-4M', '4M-10M', '10M-100M', '100M-1G', '1G+'] as const;

/** File-size bins of `charts.files[].sizes`: the highest byte the job touched + 1, upper bounds inclusive (bytes). */
export const FILE_SIZE_BINS = [
  { label: '0', max: 0 },
  { label: '≤ 4 KiB', max: 4096 },
  { label: '≤ 1 MiB', max: 1048576 },
  { label: '≤ 64 MiB', max: 67108864 },
  { label: '≤ 1 GiB', max: 1073741824 },
  { label: '> 1 GiB', max: Infinity },
] as const;

/** Most DXT segments kept per module in `charts.dxt` (how they are picked: docs/serve.md). */
export const DXT_SEGMENT_CAP = 4000;
/** Most rank rows of a HEATMAP matrix; ranks beyond it are summed in equal consecutive groups. */
export const HEATMAP_RANK_ROWS = 64;

/** I/O time of one module, seconds summed over ranks. */
export interface ModuleTimeSplit {
  readonly module: string;
  readonly read: number;
  readonly write: number;
  readonly metadata: number;
}

/** Operation counts of one module, in PyDarshan's order (Read, Write, Open, Stat, Seek, Mmap, Fsync …). */
export interface ModuleOperations {
  readonly module: string;
  readonly ops: readonly { readonly op: string; readonly count: number }[];
}

/** Access-size histogram of one module: requests per ACCESS_SIZE_BINS bin (MPI-IO: the aggregate datatype size). */
export interface AccessSizeHistogram {
  readonly module: string;
  readonly read: readonly number[];
  readonly write: readonly number[];
}

/** Files of one module: how many, how they were used, how large. */
export interface ModuleFiles {
  readonly module: string;
  readonly total: number;
  readonly readOnly: number;
  readonly writeOnly: number;
  readonly readWrite: number;
  /** Opened (or stat'ed) but neither read nor written. */
  readonly noData: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  /** Files per FILE_SIZE_BINS bin. */
  readonly sizes: readonly number[];
}

/** One HEATMAP layer (POSIX, MPIIO, STDIO): bytes per time bin. */
export interface HeatmapLayer {
  readonly layer: string;
  /** Bytes read / written per bin, summed over ranks. */
  readonly read: readonly number[];
  readonly write: readonly number[];
  /** Ranks that moved bytes in each bin. */
  readonly activeRanks: readonly number[];
  /** Ranks per row of `matrix` (1 while the job has at most HEATMAP_RANK_ROWS ranks). */
  readonly ranksPerRow: number;
  /** Bytes read + written: one row per rank group (row i = ranks i·ranksPerRow …), one column per bin. */
  readonly matrix: readonly (readonly number[])[];
}

export interface HeatmapSeries {
  readonly binSeconds: number;
  readonly layers: readonly HeatmapLayer[];
}

/**
 * DXT segments of one module, columnar (index i across the arrays is one traced call), in start-time order.
 * Times are seconds since the job start.
 */
export interface DxtSegments {
  readonly module: string;
  /** Segments in the log. */
  readonly total: number;
  /** Segments kept here (≤ DXT_SEGMENT_CAP). */
  readonly shown: number;
  /** Ranks with segments. */
  readonly ranks: number;
  /** File names the kept segments refer to (`file` indexes it). */
  readonly files: readonly string[];
  readonly rank: readonly number[];
  readonly file: readonly number[];
  /** 1 for a write, 0 for a read. */
  readonly write: readonly number[];
  readonly start: readonly number[];
  readonly end: readonly number[];
  /** −1 where the log did not record offsets (DXT_MPIIO format 1). */
  readonly offset: readonly number[];
  readonly length: readonly number[];
}

/** Per time window of a trace (`iolens trace`): what the analysed calls did. */
export interface TraceTimeline {
  readonly windowSeconds: number;
  /** Window start, seconds since the trace start. */
  readonly start: readonly number[];
  readonly readBytes: readonly number[];
  readonly writeBytes: readonly number[];
  /** Seconds inside calls, summed over processes, per category. */
  readonly readTime: readonly number[];
  readonly writeTime: readonly number[];
  readonly metadataTime: readonly number[];
  readonly ops: readonly number[];
}

export interface ChartsSection {
  readonly ioTime: readonly ModuleTimeSplit[];
  readonly operations: readonly ModuleOperations[];
  readonly accessSizes: readonly AccessSizeHistogram[];
  readonly files: readonly ModuleFiles[];
  /** Null when the log has no HEATMAP module. */
  readonly heatmap: HeatmapSeries | null;
  /** One entry per DXT module with segments (empty without DXT). */
  readonly dxt: readonly DxtSegments[];
  /** Trace reports: the analysed calls per time window. */
  readonly timeline?: TraceTimeline;
}
