/**
 * The report: the single output of `iolens report` analysis. Plain JSON, versioned (see docs/report-schema.md).
 * Renderers read only this; the job store ingests it as is.
 */

/** Bump on any incompatible change of the JSON shape; additive changes keep the number. */
export const REPORT_SCHEMA_VERSION = 1;

/** Insight levels, most severe first. HIGH and WARN are issues; OK and INFO are observations. */
export const LEVELS = ['HIGH', 'WARN', 'OK', 'INFO'] as const;
export type Level = (typeof LEVELS)[number];

/** Report panels, in display order (Drishti's METADATA and OPERATIONS). */
export const PANELS = ['METADATA', 'OPERATIONS'] as const;
export type Panel = (typeof PANELS)[number];

/** Analysis modes: `default` fixes Drishti's bugs; `drishti` reproduces Drishti's output exactly. */
export type Mode = 'default' | 'drishti';

/**
 * The fixed vocabulary of I/O problems an insight can name. Later cost-based checks tag each finding with one of
 * these, so the job store can count problems across jobs whatever check found them.
 */
export const PROBLEMS = [
  'small-writes',
  'small-reads',
  'excessive-fsync',
  'random-write',
  'random-read',
  'strided-access',
  'misaligned-file',
  'no-collective',
  'rank-imbalance',
  'rank0-only-io',
  'time-imbalance',
  'metadata-heavy',
  'many-small-files',
  'stdio-heavy',
  'redundant-read',
  'rw-switches',
  'read-modify-write',
  // Added with the diagnosis checks (issue 5), so every insight names the problem it is about (its level says
  // whether the problem is present): observations and Drishti checks that had no tag.
  'io-intensity',
  'misaligned-memory',
  'redundant-write',
  'no-mpiio',
  'blocking-io',
  'aggregator-placement',
  'io-phases',
] as const;
export type Problem = (typeof PROBLEMS)[number];

/** Units every numeric evidence value carries. */
export type Unit = 'count' | 'bytes' | 'seconds' | 'ratio' | 'percent' | 'nodes' | 'ranks' | 'files';

/** What a detail line (or an insight) is about. Record ids are 64-bit: decimal strings in JSON. */
export type Subject =
  | { readonly kind: 'file'; readonly id: string; readonly name: string; readonly rank?: number }
  | { readonly kind: 'rank'; readonly rank: number }
  | { readonly kind: 'job' };

/** Values interpolated in message templates. */
export type MessageData = Readonly<Record<string, number | string>>;

export interface Evidence {
  readonly name: string;
  readonly value: number;
  readonly unit: Unit;
  /** Counter names or the fact the value comes from. */
  readonly source: string;
}

/** A threshold actually used by an insight (the option value after config merging). */
export interface ThresholdUsed {
  /** Option name in the check's meta. */
  readonly option: string;
  /** Drishti's configuration key (`small_requests`…), the name `--config` uses. */
  readonly knob: string;
  readonly value: number;
  readonly unit: Unit;
}

export interface Detail {
  readonly messageId: string;
  readonly message: string;
  readonly data: MessageData;
  readonly subject: Subject;
}

export interface Recommendation {
  readonly id: string;
  readonly text: string;
  /** Snippet id (file name under `snippets/`), shown with `--verbose`. */
  readonly snippet?: string;
}

/** The cost of a problem: its share (0–1) of the job's I/O time, bytes or requests, and which one. */
export interface InsightCost {
  readonly share: number;
  readonly basis: 'time' | 'bytes' | 'operations';
}

export interface Insight {
  readonly code: string;
  readonly level: Level;
  readonly panel: Panel;
  readonly problem?: Problem;
  /** Set by the diagnosis checks (default mode): the default-mode report lists the costliest problems first. */
  readonly cost?: InsightCost;
  readonly messageId: string;
  readonly message: string;
  readonly data: MessageData;
  readonly evidence: readonly Evidence[];
  readonly thresholds: readonly ThresholdUsed[];
  /** Every detail line, sorted; renderers show at most 10 unless asked for more. */
  readonly details: readonly Detail[];
  readonly recommendations: readonly Recommendation[];
}

export type CheckStatus = 'fired' | 'quiet' | 'notApplicable' | 'error';

export interface CheckOutcome {
  readonly code: string;
  readonly status: CheckStatus;
  /** Why the check did not apply (missing fact) or the error message. */
  readonly reason?: string;
}

export interface ThresholdRow {
  readonly knob: string;
  readonly label: string;
  readonly value: number;
  readonly unit: Unit;
  /** Whether an insight of this report used it (Drishti lists only those unless `--threshold`). */
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

export interface JobInfo {
  readonly jobId: string;
  /** First token of the command line (empty when the log has none). */
  readonly exe: string;
  readonly command: string;
  readonly logName: string;
  readonly uid: string;
  readonly startTime: { readonly epochSeconds: number; readonly iso: string };
  readonly endTime: { readonly epochSeconds: number; readonly iso: string };
  readonly durationSeconds: number;
  readonly processes: number;
  readonly nodes: { readonly count: number | null; readonly source: 'sacct' | 'option' | null };
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
  readonly darshanVersion: string;
}

export interface ReportSummary {
  readonly high: number;
  readonly warn: number;
  readonly ok: number;
  readonly info: number;
  /** Number of recommendation bullets over all insights (Drishti's banner count). */
  readonly recommendations: number;
}

export interface Report {
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  readonly tool: { readonly name: 'iolens'; readonly version: string };
  readonly mode: Mode;
  readonly job: JobInfo;
  /** In display order: METADATA panel first, then OPERATIONS, each in check order. */
  readonly insights: readonly Insight[];
  readonly summary: ReportSummary;
  readonly thresholds: readonly ThresholdRow[];
  readonly checks: readonly CheckOutcome[];
  /** Facts about the analysis itself worth telling the user (a damaged module, hints that are Darshan's own…). */
  readonly notes: readonly string[];
  /** Message templates of every message id used, so renderers can re-render (e.g. base names vs full paths). */
  readonly messages: Readonly<Record<string, string>>;
  /** Snippet texts by id, present when the producer embedded them (the CLI does for --verbose and --html). */
  readonly snippets?: Readonly<Record<string, { readonly language: string; readonly text: string }>>;
}
