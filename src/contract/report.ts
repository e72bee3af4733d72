import type { CheckOutcome, Finding, Level, Mode, Problem, Unit } from './finding.js';
import type { ChartsSection } from './charts.js';

/**
 * The report: the one document every analysis produces — of a Darshan log (`iolens report`) or of a trace
 * (`iolens trace`, and `iolens report` on a trace) — and the only thing renderers, the job store and the web
 * service read. Plain JSON, versioned; `docs/report-schema.md` documents it and `report.schema.json` (generated
 * from `REPORT_JSON_SCHEMA`) publishes it. Older documents are brought up to date by `upgradeReport`.
 */

/** Bump on any incompatible change of the JSON shape; additive changes keep the number. */
export const REPORT_SCHEMA_VERSION = 3;

/** What was read. */
export const INPUT_FORMATS = ['darshan', 'dxt', 'recorder', 'recorder-parquet', 'dftracer'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export interface ThresholdRow {
  readonly knob: string;
  readonly label: string;
  readonly value: number;
  readonly unit: Unit;
  /** Whether a finding of this report used it (Drishti lists only those unless `--threshold`). */
  readonly triggered: boolean;
}

export interface HintsInfo {
  /** The hint text as found (`;`-separated `key=value`), or null. */
  readonly raw: string | null;
  readonly entries: readonly (readonly [string, string])[];
  /**
   * `darshan-log-writer`: Darshan's `h` job metadata, the MPI-IO hints Darshan used to write its own log, not the
   * application's. `application`: given by the user (`--hints`).
   */
  readonly source: 'darshan-log-writer' | 'application' | 'none';
}

/** Where the number of compute nodes came from. */
export type NodeSource = 'sacct' | 'option';

export interface JobInfo {
  /** Scheduler job id ('' when unknown, as in most traces). */
  readonly jobId: string;
  /** First token of the command line (empty when the log has none). */
  readonly exe: string;
  readonly command: string;
  readonly logName: string;
  readonly uid: string;
  /** Seconds since 1970 (with the nanoseconds Darshan records, where it does). */
  readonly startTime: { readonly epochSeconds: number; readonly iso: string };
  readonly endTime: { readonly epochSeconds: number; readonly iso: string };
  /** Run time in seconds, as darshan-parser's `run time` (end − start, nanoseconds included). */
  readonly durationSeconds: number;
  readonly processes: number;
  readonly nodes: { readonly count: number | null; readonly source: NodeSource | null };
  readonly files: {
    readonly total: number;
    readonly stdio: number;
    readonly posix: number;
    /** POSIX files minus MPI-IO files: Drishti's "use POSIX" number. */
    readonly posixOnly: number;
    readonly mpiio: number;
  };
  readonly hints: HintsInfo;
  readonly modules: readonly string[];
  /** Log format version for Darshan logs ('' for traces). */
  readonly darshanVersion: string;
}

/** The input the report was computed from. */
export interface InputInfo {
  readonly format: InputFormat;
  /** Paths as given (base names for Darshan logs, as in the banner). */
  readonly paths: readonly string[];
  /** Events read (traces only). */
  readonly events?: number;
  /** Input units read: files, rank files or DXT records (traces only). */
  readonly sources?: number;
  /** Non-fatal problems of the input (missing ranks, truncated data), one sentence each. */
  readonly warnings: readonly string[];
}

/** One I/O layer of the job (POSIX, MPI-IO, STDIO …). */
export interface LayerIo {
  readonly layer: string;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  /** Read + write + metadata seconds summed over ranks. */
  readonly cumulativeTime: number;
  /** The slowest rank's time (Darshan's agg_time_by_slowest): what the layer cost the run, in seconds. */
  readonly slowestRankTime: number;
  /** Bytes per second over slowestRankTime (darshan-parser's agg_perf_by_slowest), null when no time was spent. */
  readonly throughput: number | null;
}

/** Operation classes of the time model: what a call did (open/close/stat/seek… are metadata; fsync, fdatasync, MPI_File_sync are sync). */
export const IO_OPS = ['metadata', 'read', 'write', 'sync', 'other'] as const;
export type IoOp = (typeof IO_OPS)[number];

/**
 * One part of the job's I/O time: the time the application spent in one operation class of one layer it called
 * (the outermost layer of the file: an HDF5 file's time is HDF5's, which contains the MPI-IO and POSIX calls it
 * made). The parts never overlap: together they are the I/O time, in both semantics.
 */
export interface TimeShare {
  readonly layer: string;
  readonly op: IoOp;
  /** The slowest rank's part (what the job waited; `IoSummary.ioTime` is the sum of these), seconds. */
  readonly seconds: number;
  /** Summed over ranks (`IoSummary.cumulativeIoTime` is the sum of these), seconds. */
  readonly cumulativeSeconds: number;
  /**
   * Of `cumulativeSeconds`, what the layers beneath spent inside these calls, by layer (the POSIX opens inside an
   * MPI-IO open …); the rest is the called layer's own work and waiting (collective synchronisation, data exchange).
   */
  readonly beneath: Readonly<Record<string, number>>;
  /**
   * True when `seconds` is mostly the mean over ranks, not a slowest rank's time: the input records no per-rank time
   * for the calls (an HDF5 file's H5F time in a shared record). Shown as "per rank on average".
   */
  readonly slowestIsMean?: true;
}

/** An operation class a layer's data cannot time (DXT traces only reads and writes; fsync time hides in write time). */
export interface NotRecorded {
  readonly layer: string;
  readonly op: IoOp;
  readonly reason: string;
}

/** A file's part of the I/O time (`IoSummary.files`: the costliest few). */
export interface FileTime {
  readonly name: string;
  /** The outermost layer the application used on it. */
  readonly layer: string;
  /** The slowest rank's time on it (shared files: Darshan's slowest-rank time of the file), seconds. */
  readonly seconds: number;
  readonly cumulativeSeconds: number;
  /** Cumulative seconds by operation class. */
  readonly ops: Readonly<Record<IoOp, number>>;
  /** Ranks that accessed it (all ranks for a shared file). */
  readonly ranks: number;
}

/** How the I/O time spreads over ranks (per-rank times of shared files are estimated from Darshan's slowest and fastest rank). */
export interface RankTimes {
  readonly count: number;
  readonly slowest: { readonly rank: number; readonly seconds: number };
  readonly fastest: { readonly rank: number; readonly seconds: number };
  readonly median: number;
  /** True when every rank's time is measured (traces, file-per-process logs); false when shared files are estimated. */
  readonly exact: boolean;
}

/**
 * The job's I/O against its run time, from the one time model (`src/facts/time-model.ts`): what every finding's cost
 * is a share of, and what every output that shows an I/O time shows. Two semantics, always named: the slowest rank
 * (the wall time the job waited in I/O) and the sum over ranks.
 */
export interface IoSummary {
  /** Run time in seconds (the job's; a trace's span from its first call to its last when it has no job record). */
  readonly runTime: number;
  /**
   * The I/O time of the slowest rank, seconds: the slowest rank's time in files it alone opened plus, for each shared
   * file, Darshan's slowest-rank time of it (darshan-parser's agg_time_by_slowest, at the layer the application
   * called); for traces the slowest process's time, exactly.
   */
  readonly ioTime: number;
  /** ioTime / runTime (at most 1); null when unknown. */
  readonly ioShare: number | null;
  /** The I/O time summed over ranks, seconds. */
  readonly cumulativeIoTime: number;
  /** The ranks (processes) the sum runs over: cumulativeIoTime / (runTime × processes) is its share of the run. */
  readonly processes: number;
  /**
   * Seconds of calls that ran while another call of the same rank did (a trace's threads): each rank's time counts
   * them once, cumulativeIoTime in full (0 for Darshan logs, which cannot tell).
   */
  readonly overlapSeconds: number;
  /** Bytes read and written at the lowest layers. */
  readonly bytes: number;
  /** Where the time went: layer × operation class, the costliest first; sums to ioTime and cumulativeIoTime. */
  readonly breakdown: readonly TimeShare[];
  /** Operation classes the input cannot time (never shown as 0 %). */
  readonly notRecorded: readonly NotRecorded[];
  /** The costliest files (at most 10), by cumulative seconds. */
  readonly files: readonly FileTime[];
  readonly ranks: RankTimes | null;
  /** What the model is computed from: Darshan's counters, the counters refined by DXT, or a trace's calls. */
  readonly source: 'counters' | 'counters+dxt' | 'trace';
  /** Each layer's own totals and darshan-parser --perf estimate (a layer's time contains the layers beneath it). */
  readonly layers: readonly LayerIo[];
  /**
   * Time on files that are not storage (named pipes, sockets, devices, /proc, the standard streams), set apart from
   * the I/O time above: the job was waiting on other processes or devices. Present when there is such time.
   */
  readonly notStorage?: NotStorageTime;
}

/** Time on files that are not storage (`IoSummary.notStorage`), in both semantics. */
export interface NotStorageTime {
  /** The slowest rank's seconds in such calls (at most the run time). */
  readonly seconds: number;
  readonly cumulativeSeconds: number;
  /** How many files are not storage. */
  readonly count: number;
  /** The costliest (at most 10): name, why it is not storage, seconds in both semantics. */
  readonly files: readonly { readonly name: string; readonly reason: string; readonly seconds: number; readonly cumulativeSeconds: number }[];
}

/** The answer the report opens with: where the time went, in a sentence or two with numbers. */
export interface Verdict {
  readonly text: string;
  /** Whether I/O takes enough of the run to be the job's bottleneck (knob high_run_share); when not, no finding is HIGH. */
  readonly ioBound: boolean;
  /** The largest part of the breakdown (grouped over the layers of one call path), or null when no I/O was timed. */
  readonly sink: {
    readonly layer: string;
    readonly op: IoOp;
    readonly seconds: number;
    readonly cumulativeSeconds: number;
    /** Share of the I/O time (same in both semantics for the sink's own part). */
    readonly share: number;
    /** The file holding most of it, when one does. */
    readonly file: string | null;
    /**
     * False when the largest part is time on files that are not storage (`io.notStorage`: waiting on other processes
     * or devices; layer `not storage`, op `other`); absent otherwise.
     */
    readonly storage?: false;
  } | null;
  /** Codes of the HIGH/WARN findings that name the sink's time, costliest first (empty when none does). */
  readonly findings: readonly string[];
}

/** What the input is missing, per module. */
export interface ModuleCompleteness {
  readonly module: string;
  /** `partial`: records or trace segments were dropped; `damaged`: the data does not decode; `unreliable`: known bad values. */
  readonly status: 'partial' | 'damaged' | 'unreliable';
  readonly detail: string;
}

export interface DataCompleteness {
  readonly complete: boolean;
  readonly modules: readonly ModuleCompleteness[];
}

export interface ReportSummary {
  readonly high: number;
  readonly warn: number;
  readonly ok: number;
  readonly info: number;
  /** Number of recommendation bullets over all findings (Drishti's banner count). */
  readonly recommendations: number;
}

/** Per-category statistics of a trace (read, write, metadata, sync, other). */
export interface TraceCategoryStats {
  readonly ops: number;
  readonly bytes: number;
  readonly time: number;
  readonly opsShare: number;
  readonly bytesShare: number;
  readonly timeShare: number;
}

export interface TraceCharacteristics {
  /** Seconds from the first call's start to the last call's end (the job's run time is `io.runTime`). */
  readonly runtime: number;
  /** Seconds spent in the analysed calls, summed over processes (the job's I/O time is `io`). */
  readonly ioTime: number;
  readonly ops: number;
  readonly bytes: number;
  readonly read: TraceCategoryStats;
  readonly write: TraceCategoryStats;
  readonly metadata: TraceCategoryStats;
  readonly sync: TraceCategoryStats;
  readonly other: TraceCategoryStats;
  readonly processes: number;
  readonly files: number;
  readonly hosts: number;
  readonly apps: number;
  readonly eventsTotal: number;
  readonly eventsAnalyzed: number;
  readonly callsByLayer: Readonly<Record<string, number>>;
  readonly callsByFunction: Readonly<Record<string, number>>;
  /** Categories the trace format does not record (DXT: metadata, sync, other): their 0 means unknown, not none. */
  readonly notRecorded: readonly string[];
}

/**
 * Dimensions of trace views: a view groups the trace's calls by one to three of them (`file`, `proc>file` …).
 * Keys of view records and of `record` subjects use these names; `time` is a window's start in seconds since the
 * start of the first window.
 */
export const TRACE_DIMS = ['file', 'proc', 'time', 'app', 'host', 'dir', 'pattern'] as const;
export type TraceDim = (typeof TRACE_DIMS)[number];

/**
 * The numeric columns of every trace view record (seconds, counts, bytes, shares 0–1), in report order: the names
 * the rule language of user checks uses and the columns of the trace CSV. docs/trace.md describes each.
 */
export const TRACE_METRICS = [
  'time', 'ops', 'bytes', 'iops', 'bandwidth',
  'read_time', 'read_ops', 'read_bytes', 'write_time', 'write_ops', 'write_bytes',
  'metadata_time', 'metadata_ops', 'metadata_bytes', 'sync_time', 'sync_ops', 'sync_bytes',
  'other_time', 'other_ops', 'other_bytes',
  'data_time', 'data_ops', 'data_bytes',
  'read_size_avg', 'write_size_avg',
  'small_read_ops', 'small_write_ops', 'small_read_share', 'small_write_share',
  'random_ops', 'offset_ops', 'random_share',
  'metadata_time_share', 'metadata_ops_share', 'sync_time_share', 'sync_ops_share',
  'nprocs', 'nfiles', 'top_proc_time_share', 'top_proc_bytes_share',
  'proc_ops_imbalance', 'proc_bytes_imbalance', 'proc_time_imbalance',
  'time_share', 'ops_share', 'bytes_share',
  'first_start', 'last_end', 'span',
] as const;
export type TraceMetric = (typeof TRACE_METRICS)[number];

/** The metric score of a view record: the evidence behind its level. */
export interface MetricScore {
  readonly metric: string;
  readonly value: number;
  /** 0 (at or below the threshold) … 1 (worst). */
  readonly badness: number;
}

/** A view record flagged as a bottleneck. */
export interface Bottleneck {
  /** Dimension values (strings; time windows as their start in seconds since the trace start). */
  readonly key: Readonly<Record<string, string | number>>;
  /** By what the record costs (its share of the I/O time), once the metric has flagged it (docs/trace.md). */
  readonly level: Level;
  readonly score: MetricScore;
  /** The record's metrics (the names of the rule language: `time_share`, `small_write_ops` …). */
  readonly metrics: Readonly<Record<TraceMetric, number>>;
  /** Codes of the trace checks whose findings name this record. */
  readonly findings: readonly string[];
}

export interface ViewReport {
  /** `file`, `proc>file` … */
  readonly name: string;
  readonly dims: readonly TraceDim[];
  readonly parent: string | null;
  readonly records: number;
  readonly bottlenecks: number;
  readonly byLevel: Readonly<Record<Level, number>>;
  /** Bottlenecks named by at least one finding. */
  readonly explained: number;
  readonly top: readonly Bottleneck[];
}

/** What `iolens trace` adds: the trace seen from every perspective (WisIO's views). */
export interface TraceSection {
  readonly timeOrigin: number | null;
  readonly details: Readonly<Record<string, unknown>>;
  readonly options: {
    readonly views: readonly string[];
    readonly layers: readonly string[];
    readonly granularity: number;
    readonly smallBytes: number;
    readonly minTimeShare: number;
    readonly top: number;
  };
  readonly severity: {
    readonly metric: string;
    readonly description: string;
    readonly unit: string;
    readonly threshold: number;
  };
  readonly characteristics: TraceCharacteristics;
  readonly views: readonly ViewReport[];
  readonly coverage: { readonly bottlenecks: number; readonly explained: number; readonly share: number };
}

export interface Report {
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  readonly tool: { readonly name: 'iolens'; readonly version: string };
  readonly mode: Mode;
  readonly input: InputInfo;
  readonly job: JobInfo;
  /** The job's I/O time from the one time model: both semantics, the breakdown, files, ranks, layers. */
  readonly io: IoSummary;
  /** Where the time went, first (default mode; absent in `--drishti` mode). */
  readonly verdict?: Verdict;
  /** Whether the data is complete; findings that rest on incomplete data carry a caveat and are capped at WARN. */
  readonly completeness: DataCompleteness;
  /** In display order: METADATA panel first, then OPERATIONS; within each, Drishti's check order (`--drishti`) or
   *  the most seconds first — what fixing saves, an observation by what its calls spent — and the good patterns (OK)
   *  last (default mode). */
  readonly insights: readonly Finding[];
  readonly summary: ReportSummary;
  readonly thresholds: readonly ThresholdRow[];
  /** Every check considered, in evaluation order, with what became of it. */
  readonly checks: readonly CheckOutcome[];
  /** Facts about the analysis itself worth telling the user (a damaged module, hints that are Darshan's own…). */
  readonly notes: readonly string[];
  /** Message templates of every message id used, so renderers can re-render (e.g. base names vs full paths). */
  readonly messages: Readonly<Record<string, string>>;
  /** Snippet texts by id (embedded by the pipeline for `--verbose`, HTML and JSON). */
  readonly snippets?: Readonly<Record<string, { readonly language: string; readonly text: string }>>;
  /** Present on trace reports (`iolens trace`). */
  readonly trace?: TraceSection;
  /** Present when a learned model was given (`iolens report LOG --model M`, docs/learn.md). */
  readonly learned?: LearnedSection;
  /** The numbers behind the plots (`--charts`, `--html`, the web service); see charts.ts. */
  readonly charts?: ChartsSection;
}

/** One feature's part in a learned prediction: its SHAP value in the model's log10(1 + y) space. */
export interface LearnedContribution {
  readonly feature: string;
  /** The value the model saw (a feature set's log10 value as stored; null = missing). */
  readonly value: number | string | null;
  readonly shap: number;
  /** 10^|shap|: the factor of throughput the feature cost (shap < 0) or added (shap > 0). */
  readonly factor: number;
  /** In plain words: `writes of 1–10 KiB (POSIX_SIZE_WRITE_1K_10K = 52,000) cost ×3.1 of throughput`. */
  readonly text: string;
  /** The report's problem tags the feature (and its alike ones) stand for (small-size bins → small-writes …), possibly none. */
  readonly problems: readonly Problem[];
  /** A pattern of the job's I/O, a setting, or context (scale, server load, history): docs/learn.md. */
  readonly role?: 'behaviour' | 'configuration' | 'context';
  /** What the value was weighed against: 0 (a counter against none), the typical training value, or its own (constant in training). */
  readonly against?: 'zero' | 'typical' | 'own';
  /** The value weighed against, as `value` is given (null for `own`). */
  readonly reference?: number | string | null;
  /** Near-duplicate features summed into this line (the same counter's average/min/max/total, or another feature set's copy). */
  readonly alike?: readonly string[];
  /** The contribution is larger than any two training jobs differ by: the model extrapolates, no factor is claimed. */
  readonly beyondData?: boolean;
}

/** A problem the learned blame and the heuristic findings agree or disagree on. */
export interface LearnedProblem {
  readonly problem: Problem;
  /** Codes of the HIGH/WARN findings with this problem tag. */
  readonly findings: readonly string[];
  /** Features whose cost (at least ×1.1) points to this problem. */
  readonly features: readonly string[];
  /** Σ SHAP of the costliest blame line naming the problem (log10 of the throughput factor; absent when not blamed). */
  readonly shap?: number;
}

/**
 * What a model learned from the facility's other jobs says about this one: how fast its I/O should have been, which
 * features cost the most (exact SHAP, zero counters get zero blame), and which heuristic findings that blame
 * corroborates.
 */
export interface LearnedSection {
  readonly model: {
    /** The model file's name (no folders). */
    readonly file: string;
    /** The table it was trained on and its target column. */
    readonly table: string;
    readonly target: string;
    /** Unit of the target (`MiB/s`), '' when unknown. */
    readonly unit: string;
    readonly members: readonly string[];
    readonly best: string;
    readonly rows: number;
    readonly timeSpan: { readonly from: string | number; readonly to: string | number } | null;
    /** The ensemble's validation accuracy in log10(1 + y): RMSE, R², median error factor. */
    readonly validation: { readonly rmse: number; readonly r2: number; readonly medianErrorFactor: number };
    /** The same on the validation rows for predicting the training median for every job: the bar to beat. */
    readonly baselineValidation?: { readonly rmse: number; readonly r2: number; readonly medianErrorFactor: number };
  };
  /** Prediction in target units, with its interval (validation residual quantiles 5 %, 95 %). */
  readonly predicted: number;
  readonly low: number;
  readonly high: number;
  /** The job's own measured target value, when the log has it. */
  readonly measured: number | null;
  /** True when the job is outside what the model learned: then the prediction is a guess. */
  readonly ood: boolean;
  readonly oodReasons: readonly string[];
  /** SHAP in model space: base + Σ shap of all features = output = log10(1 + predicted). */
  readonly baseline: 'zero' | 'path' | 'typical';
  readonly base: number;
  readonly output: number;
  /** The largest contributions by |shap| (at most 10), costs and gains. */
  readonly contributors: readonly LearnedContribution[];
  /** Problems both the blame and a HIGH/WARN finding name. */
  readonly corroborated: readonly LearnedProblem[];
  /** Problems the blame names and no HIGH/WARN finding does. */
  readonly modelOnly: readonly LearnedProblem[];
  /** Problems of HIGH/WARN findings that the model's features could show but its blame does not. */
  readonly findingsOnly: readonly LearnedProblem[];
  /** The outcome in one sentence (measured against predicted). */
  readonly summary: string;
  /**
   * Why the model's blame is not given (then `contributors` and the problem lists are empty): it does not predict
   * better than the training median on its own validation rows.
   */
  readonly notUsed?: string;
}
