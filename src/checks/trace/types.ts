import type { Knob } from '../../config/knobs.js';
import type { CheckWording, Cost, Evidence, Level, MessageData, MetricScore, Panel, Problem } from '../../contract/index.js';
import type { LevelCuts } from '../../trace/score.js';
import type { Dim } from '../../trace/view-catalogue.js';
import type { Metrics } from '../../trace/views.js';

/**
 * Trace checks: the trace's counterpart of the Darshan checks (`src/checks/`). Each judges the scored view records
 * of one trace and emits findings of the contract's shape (code, level, problem, cost, messages, details,
 * evidence, thresholds, recommendations) — the same fields a Darshan report's insights have.
 */

/** A view record after scoring: its key, metrics, metric score and level. */
export interface ScoredRecord {
  readonly view: string;
  readonly dims: readonly Dim[];
  readonly key: Readonly<Partial<Record<Dim, string | number>>>;
  readonly metrics: Metrics;
  readonly score: MetricScore;
  /** OK when the metric does not flag the record; else HIGH/WARN/INFO by its share of the I/O time. */
  readonly level: Level;
}

/** One view of the trace, every record scored. */
export interface ScoredView {
  readonly name: string;
  readonly dims: readonly Dim[];
  readonly parent: string | null;
  readonly records: readonly ScoredRecord[];
}

/** An option of a trace check: a number read from one knob of the configuration. */
export interface TraceOptionSpec {
  readonly knob: Knob;
  /** What the option means for this check (defaults to the knob's description). */
  readonly description?: string;
}

/** Everything about a trace check that is data: identity, wording, options, recommendations. */
export interface TraceCheckMeta<O extends string, M extends string, R extends string> extends CheckWording {
  /** `builtin` (src/checks/trace) or `user` (a YAML rule file). */
  readonly source: 'builtin' | 'user';
  readonly options: Readonly<Record<O, TraceOptionSpec>>;
  /** Message templates with `{name}` / `{name:pct}` placeholders (src/text/template.ts): the finding and its details. */
  readonly messages: Readonly<Record<M, string>>;
  readonly recommendations: Readonly<Record<R, { readonly text: string }>>;
}

/** A detail line: a record the finding names, and its message. */
export interface RecordDetail<M extends string> {
  readonly record: ScoredRecord;
  readonly messageId: M;
  readonly data: MessageData;
}

/** A finding as a trace check produces it; the runner adds code, panel, problem, texts and thresholds. */
export interface TraceFindingInput<M extends string, R extends string> {
  readonly messageId: M;
  readonly data: MessageData;
  /** The records the finding explains (at least one). */
  readonly details: readonly RecordDetail<M>[];
  /** The share of the trace's I/O time the records account for (never counting a call twice). */
  readonly cost: Cost;
  /** Default: by the cost (the level rule); a configuration override wins over both. */
  readonly level?: Level;
  readonly evidence?: readonly Evidence[];
  readonly recommendations?: readonly R[];
}

/** What `run` receives. Pure: the scored views, the option values, and where to report. */
export interface TraceCheckContext<O extends string, M extends string, R extends string> {
  readonly options: Readonly<Record<O, number>>;
  /** Every computed view, in report order. */
  readonly views: readonly ScoredView[];
  /** The flagged records (level ≠ OK) of every view, in view order. */
  readonly flagged: readonly ScoredRecord[];
  /** The level rule's cuts (knobs trace_high_time_share, trace_warn_time_share). */
  readonly cuts: LevelCuts;
  report(finding: TraceFindingInput<M, R>): void;
}

export interface TraceCheck<O extends string = string, M extends string = string, R extends string = string> {
  readonly meta: TraceCheckMeta<O, M, R>;
  run(ctx: TraceCheckContext<O, M, R>): void;
}

/** Type-erased trace check for registries and runners. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTraceCheck = TraceCheck<any, any, any>;
