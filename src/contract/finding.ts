/**
 * The finding: what every analysis of IOLens produces (Darshan checks, trace checks, learned diagnosis), one shape
 * for all. Plain JSON. This file imports nothing: it is the ground every other layer stands on.
 */

/** Finding levels, most severe first. HIGH and WARN are problems; OK and INFO are observations. */
export const LEVELS = ['HIGH', 'WARN', 'OK', 'INFO'] as const;
export type Level = (typeof LEVELS)[number];

/** Report panels, in display order (Drishti's METADATA and OPERATIONS). */
export const PANELS = ['METADATA', 'OPERATIONS'] as const;
export type Panel = (typeof PANELS)[number];

/** Analysis modes: `default` fixes Drishti's bugs; `drishti` reproduces Drishti's output exactly. */
export const MODES = ['default', 'drishti'] as const;
export type Mode = (typeof MODES)[number];

/**
 * The fixed vocabulary of I/O problems a finding can name, whatever found it (a Darshan check, a trace check, a
 * learned model), so that the job store can count problems across jobs. A finding's level says whether the
 * problem is present (HIGH/WARN) or was looked at and found absent or merely noted (OK/INFO).
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
  'io-intensity',
  'misaligned-memory',
  'redundant-write',
  'no-mpiio',
  'blocking-io',
  'aggregator-placement',
  'io-phases',
  'time-sink',
  // Storage-side problems (the LUSTRE module's layouts): the file system, or how the job set it up.
  'slow-storage-target',
  'stripe-settings',
  // Trace checks (views of every call): problems only a trace shows.
  'random-access',
  'shared-file-contention',
  'slow-calls',
] as const;
export type Problem = (typeof PROBLEMS)[number];

/** What every check says about itself, log check or trace check: identity and wording. */
export interface CheckWording {
  /** Public id, stable forever (`P05`, `T01`; a user trace rule's id). */
  readonly code: string;
  /** Noun phrase naming the problem (`small-reads`). */
  readonly slug: string;
  /** Wording when all is well. */
  readonly title: string;
  /** Wording of the problem or observation. */
  readonly failureTitle: string;
  /** Why it matters (the lead of the docs page). */
  readonly description: string;
  readonly panel: Panel;
  /** Problem tag from the fixed vocabulary (optional: observations have none). */
  readonly problem?: Problem;
}

/** Units every numeric evidence value and threshold carries. */
export const UNITS = ['count', 'bytes', 'seconds', 'ratio', 'percent', 'nodes', 'ranks', 'files', 'degrees', 'bytes/s'] as const;
export type Unit = (typeof UNITS)[number];

/**
 * What a finding or one of its detail lines is about. Darshan record ids are 64-bit: decimal strings in JSON.
 * Trace findings point at a record of a view (`proc>file`: the key holds a process label and a file name).
 */
export type Subject =
  | { readonly kind: 'file'; readonly id: string; readonly name: string; readonly rank?: number }
  | { readonly kind: 'rank'; readonly rank: number }
  | { readonly kind: 'job' }
  | { readonly kind: 'record'; readonly view: string; readonly key: Readonly<Record<string, string | number>> };

/** Values interpolated in message templates. */
export type MessageData = Readonly<Record<string, number | string>>;

export interface Evidence {
  readonly name: string;
  readonly value: number;
  readonly unit: Unit;
  /** Counter names, the fact or the metric the value comes from. */
  readonly source: string;
}

/** A threshold actually used by a finding (the option value after configuration). */
export interface ThresholdUsed {
  /** Option name in the check's meta. */
  readonly option: string;
  /** Configuration key (`small_requests`…), the name `--config` uses. */
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

/**
 * What a recommendation asks the job to do, where another fact of the same report can show it is done already (then
 * the recommendation is not given: src/checks/advice.ts). Recommendations that name none of these are not checked.
 */
export const ADVICE = ['collective-writes', 'collective-reads', 'collective-io', 'open-once', 'align-requests', 'non-blocking-writes', 'non-blocking-reads', 'striping'] as const;
export type Advice = (typeof ADVICE)[number];

export interface Recommendation {
  readonly id: string;
  readonly text: string;
  /** What it asks the job to do (ADVICE), when a fact of the report can contradict it. */
  readonly advises?: Advice;
  /** Snippet id (file name under `snippets/`), shown with `--verbose`. */
  readonly snippet?: string;
}

/** Which I/O time a cost is in: the slowest rank's (what the job waited) or the sum over ranks. */
export const COST_SEMANTICS = ['slowest', 'cumulative'] as const;
export type CostSemantics = (typeof COST_SEMANTICS)[number];

/**
 * What a problem costs, in seconds of the job's I/O time (the one time model): the time its calls took, or the time
 * the job waited for it. `basis` says how sure: `time` is measured, `bound` an upper bound (the time of calls that
 * include the pattern's, when the counters cannot separate them); a bound is never HIGH.
 */
export interface Cost {
  readonly seconds: number;
  readonly semantics: CostSemantics;
  /** seconds / the job's I/O time of the same semantics (0–1). */
  readonly ioShare: number;
  /** seconds / the run time of the same semantics (× processes for cumulative; 0–1), null when the run time is unknown. */
  readonly runShare: number | null;
  readonly basis: 'time' | 'bound';
}

/**
 * What fixing a problem would save, in seconds of the job's I/O time (the one time model): the time of the problem's
 * calls minus what the same work would take done well, in the semantics of the finding's cost. `basis` says where
 * "done well" comes from: `job` the job's own evidence (its large requests' bandwidth, its median rank or target, one
 * open per file), `reference` a stated reference (a documented per-call latency or bandwidth), `bound` an upper bound
 * (the counters cannot separate the problem's share). `low`–`high` is the range the estimate allows.
 */
export interface Savings {
  readonly seconds: number;
  readonly low: number;
  readonly high: number;
  readonly semantics: CostSemantics;
  readonly basis: 'job' | 'reference' | 'bound';
  /** What "done well" was taken to be, in words (`the job's 4 MiB writes at 812 MiB/s`). */
  readonly reference: string;
}

/** One finding (JSON: an entry of the report's `insights`, Drishti's word). */
export interface Finding {
  /** Stable code of the check that produced it (`P05`, `D03`, `T04` …). */
  readonly code: string;
  readonly level: Level;
  readonly panel: Panel;
  readonly problem?: Problem;
  /** Set where the check measures it: the report lists the costliest problems first (default mode). */
  readonly cost?: Cost;
  /** What fixing it would save (issue "savings"): set on every HIGH/WARN finding that states a cost. */
  readonly savings?: Savings;
  readonly messageId: string;
  readonly message: string;
  readonly data: MessageData;
  readonly evidence: readonly Evidence[];
  readonly thresholds: readonly ThresholdUsed[];
  /** Every detail line, sorted; renderers show at most 10 unless asked for more. */
  readonly details: readonly Detail[];
  /**
   * Details not listed: present (≥ 1) only in a report built for an output that shows a few per finding (the
   * terminal), which asked for at most that many; `details` then holds the first ones. JSON reports list them all.
   */
  readonly detailsOmitted?: number;
  readonly recommendations: readonly Recommendation[];
  /** The check's documentation page, relative to the IOLens package (`docs/checks/D10.md`). */
  readonly docs?: string;
  /** Why the finding may be less sure than it reads (it rests on incomplete data …); such findings are at most WARN. */
  readonly caveats?: readonly string[];
  /** Who found it: a check (the default, absent) or a learned model (`report --model`: codes in MODEL_CODES). */
  readonly source?: 'check' | 'model';
  /** The model behind a `source: "model"` finding: its file (no folders), training table and target. */
  readonly model?: { readonly file: string; readonly table: string; readonly target: string };
}

/**
 * Codes of the findings a learned model adds (src/models/learned-findings.ts): L01 how the job's throughput compares
 * with what the model expected, L02 each cause the model's blame ranks (at most three).
 */
export const MODEL_CODES = ['L01', 'L02'] as const;

export type CheckStatus = 'fired' | 'quiet' | 'notApplicable' | 'error';

/** What became of one check in one analysis. */
export interface CheckOutcome {
  readonly code: string;
  readonly status: CheckStatus;
  /** Why the check did not apply (missing fact, superseded, disabled) or the error message. */
  readonly reason?: string;
}

/**
 * Drishti's CSV columns after JOB, in its order: a fact about Drishti's output format that the CSV renderer needs
 * for `--drishti --csv`.
 */
export const DRISHTI_CSV_CODES = [
  'S01', 'P01', 'P02', 'P03', 'P04', 'P05', 'P06', 'P07', 'P08', 'P09', 'P10', 'P11', 'P12', 'P13', 'P14', 'P15', 'P16', 'P17', 'P18', 'P19', 'P21', 'P22', 'M01', 'M02', 'M03', 'M04', 'M05', 'M06', 'M07', 'M08', 'M09', 'M10',
] as const;
