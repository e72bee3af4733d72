import type { Level, Problem } from './finding.js';
import type { InputFormat, TimeShare } from './report.js';

/** Version of the comparison document (`iolens compare --json`); renderers read only this document. */
export const COMPARISON_SCHEMA_VERSION = 1;

/** One I/O layer's work in a run (from Darshan's counters or a trace's derived ones). */
export interface LayerWork {
  /** The Darshan module its counters come from (H5F and H5D are both the HDF5 layer). */
  readonly module: string;
  readonly layer: string;
  readonly files: number;
  readonly opens: number;
  readonly reads: number;
  readonly writes: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
}

/** What a run was configured as and asked for: what `compare` lists when it changed. */
export interface RunSettings {
  readonly processes: number;
  readonly nodes: number | null;
  readonly exe: string;
  /** Darshan's runtime version (`lib_ver`), when the log has it. */
  readonly libraryVersion: string | null;
  /** Log format version ('' for traces). */
  readonly formatVersion: string;
  readonly modules: readonly string[];
  /** MPI-IO hints the application set (given with `--hints`); Darshan's own log-writing hints are left out. */
  readonly hints: readonly (readonly [string, string])[];
  /** File-system types of the mounts its POSIX files live on. */
  readonly fsTypes: readonly string[];
  readonly files: number;
  readonly layers: readonly LayerWork[];
  /** The most common Lustre layout of its files (stripe size in bytes, stripe count), null without Lustre records. */
  readonly stripes: { readonly size: number; readonly count: number; readonly files: number } | null;
}

/** A finding of one run as compared: its cost in the comparison's seconds (see `ComparedFinding.seconds`). */
export interface ComparedFinding {
  readonly code: string;
  readonly level: Level;
  readonly problem: Problem | null;
  /**
   * What the finding costs the run in seconds of its I/O time on the slowest rank: `cost.ioShare × io.ioTime` (the
   * share of the I/O time it costs, in the semantics its check measures, of the time the job waited for I/O); 0
   * without a cost.
   */
  readonly seconds: number;
  readonly basis: 'time' | 'bound' | null;
  /** What fixing it would save, on the same scale (`savings` as a share of the I/O time × io.ioTime); absent without savings. */
  readonly saves?: number;
  readonly message: string;
}

/** One run of the comparison, from its report and its counters. */
export interface ComparedRun {
  /** The name shown (file or folder name; unique among the runs). */
  readonly name: string;
  readonly path: string;
  readonly format: InputFormat;
  readonly jobId: string;
  readonly runTime: number;
  /** I/O time on the slowest rank, seconds (the report's `io.ioTime`). */
  readonly ioTime: number;
  /** I/O time summed over ranks, seconds. */
  readonly cumulativeIoTime: number;
  readonly ioShare: number | null;
  readonly bytes: number;
  readonly breakdown: readonly TimeShare[];
  /** Its WARN and HIGH findings, and the others that state a cost, in report order. */
  readonly findings: readonly ComparedFinding[];
  readonly settings: RunSettings;
}

/** One part of the time model (layer × operation) in the base run and another. */
export interface PartDelta {
  readonly layer: string;
  readonly op: TimeShare['op'];
  /** Slowest-rank seconds in the base run, in the other, and the difference (other − base). */
  readonly baseSeconds: number;
  readonly otherSeconds: number;
  readonly delta: number;
  /** The same summed over ranks. */
  readonly baseCumulative: number;
  readonly otherCumulative: number;
  readonly deltaCumulative: number;
}

/** A piece of evidence of a cause: one quantity in the base run and the other. */
export interface CauseEvidence {
  readonly name: string;
  readonly base: number | string | null;
  readonly other: number | string | null;
  readonly unit?: 'seconds' | 'bytes' | 'count';
}

/**
 * Why the other run differs: a finding that appears, vanishes or changes cost (with its seconds, signed: more time
 * in the other run is positive), or a setting that changed (no seconds of its own: the findings and the time model
 * say what it cost).
 */
export interface Cause {
  readonly kind: 'finding' | 'setting';
  readonly change: 'appears' | 'vanishes' | 'changes' | 'changed';
  /** The finding's check code, or the setting's name (`processes`, `POSIX write size` …). */
  readonly code: string;
  readonly problem: Problem | null;
  /** Signed seconds (other − base) for findings; null for settings. */
  readonly seconds: number | null;
  readonly baseLevel: Level | null;
  readonly otherLevel: Level | null;
  /** The finding's message in the run where it holds (the other run's, else the base's); a setting's description. */
  readonly text: string;
  readonly evidence: readonly CauseEvidence[];
}

/** One feature's share of the predicted difference (`--model`). */
export interface AttributionTerm {
  readonly feature: string;
  readonly base: number | string | null;
  readonly other: number | string | null;
  /** Its part of the difference in the model's space (log10(1 + target)); the parts sum to the difference. */
  readonly shap: number;
}

/** The learned model's view of the difference: interventional TreeSHAP with the base run as the one reference. */
export interface Attribution {
  readonly model: string;
  readonly target: string;
  /** Predicted target of the base run and of the other one (the target's unit). */
  readonly basePrediction: number;
  readonly otherPrediction: number;
  /** Model outputs (log10(1 + target)): other − base = Σ shap. */
  readonly baseOutput: number;
  readonly otherOutput: number;
  /** Features with a non-zero part, the largest first. */
  readonly terms: readonly AttributionTerm[];
  /** Why some of it is not exact (members that are not trees), or why it is missing. */
  readonly notes: readonly string[];
}

/** Another run against the base. */
export interface OtherComparison {
  readonly run: ComparedRun;
  /** other − base, seconds: run time, I/O time on the slowest rank, I/O time summed over ranks. */
  readonly timeDelta: number;
  readonly ioTimeDelta: number;
  readonly cumulativeIoTimeDelta: number;
  /** The time model's parts side by side, the largest change first. */
  readonly parts: readonly PartDelta[];
  /** Findings that changed, ranked by seconds (largest change first), then the settings that changed. */
  readonly causes: readonly Cause[];
  readonly warnings: readonly string[];
  readonly attribution?: Attribution;
}

/** Several runs: which findings hold in every run and which in some. */
export interface FindingSpread {
  readonly code: string;
  readonly problem: Problem | null;
  /** Per run (base first), its level and seconds, or null when the run has no such finding. */
  readonly runs: readonly ({ readonly level: Level; readonly seconds: number; readonly saves?: number } | null)[];
}

/** One quantity over an application's runs in the store, and where the run stands among them. */
export interface HistoryMetric {
  /** `io_time` (seconds on the slowest rank), `io_mibs` (MiB/s) or `run_time` (seconds): the store's columns. */
  readonly metric: 'io_time' | 'io_mibs' | 'run_time';
  /** Runs of the history with a value. */
  readonly runs: number;
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly max: number;
  /** The run's value, and the share of the history's runs below it (ties count half). */
  readonly value: number | null;
  readonly quantile: number | null;
  /**
   * Outside Tukey's fences on the log10 scale (beyond 1.5 interquartile ranges from the quartiles): `high` or `low`;
   * null inside them, or with fewer than 5 runs.
   */
  readonly outlier: 'high' | 'low' | null;
  /** Counts per bin of equal width on the log10 scale (for the plot), `low`/`high` the bin's edges in the metric's unit. */
  readonly bins: readonly { readonly low: number; readonly high: number; readonly count: number }[];
}

/** A run against its application's history in the store (`compare --db STORE RUN`). */
export interface History {
  readonly app: string;
  readonly runs: number;
  readonly metrics: readonly HistoryMetric[];
  /** The run compared with (the base): the history's median run by I/O time that could be read, or null. */
  readonly reference: { readonly hash: string; readonly path: string } | null;
  readonly notes: readonly string[];
}

/** `iolens compare`: the base run, every other run against it, and the findings across all of them. */
export interface Comparison {
  readonly schemaVersion: typeof COMPARISON_SCHEMA_VERSION;
  readonly tool: { readonly name: 'iolens'; readonly version: string };
  readonly base: ComparedRun;
  readonly others: readonly OtherComparison[];
  /** Findings (WARN/HIGH in some run) in every run, then in some. */
  readonly common: readonly FindingSpread[];
  readonly differing: readonly FindingSpread[];
  /** Inputs that could not be read (the others were compared). */
  readonly failed: readonly { readonly path: string; readonly error: string }[];
  /** With a store: the run against its application's history (the run is `others[0]`, the base the history's median run). */
  readonly history?: History;
}
