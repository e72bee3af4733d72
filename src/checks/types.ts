import type { Knob } from '../config/knobs.js';
import type { FactContext } from '../facts/fact-context.js';
import type { FactName, FactValues } from '../facts/types.js';
import type { Advice, CheckWording, CostSemantics, Evidence, HintsInfo, Level, MessageData, Mode, Panel, Problem, Subject } from '../contract/index.js';
import type { TraceViews } from '../trace/score.js';
import type { SavingsInput } from './savings.js';

/** An option of a check: a number read from one knob of the configuration (Drishti's threshold names). */
export interface OptionSpec {
  readonly knob: Knob;
  /** What the option means for this check (defaults to the knob's description). */
  readonly description?: string;
}

/** A recommendation bullet: our text, and optionally an example snippet (a file under `snippets/`). */
export interface RecommendationSpec {
  readonly text: string;
  readonly snippet?: SnippetId;
  /** What it asks the job to do, when another fact of the report can show it is done already (src/checks/advice.ts). */
  readonly advises?: Advice;
}

/** Snippet files under `snippets/` (a meta-test checks each exists). */
export const SNIPPETS = {
  'mpi-io-collective-read.c': 'c',
  'mpi-io-collective-write.c': 'c',
  'mpi-io-iread.c': 'c',
  'mpi-io-iwrite.c': 'c',
  'mpi-io-hints.sh': 'bash',
  'hdf5-alignment.c': 'c',
  'hdf5-collective-metadata.c': 'c',
  'hdf5-metadata-cache.c': 'c',
  'hdf5-vol-async-read.c': 'c',
  'hdf5-vol-async-write.c': 'c',
  'lustre-striping.sh': 'bash',
  'no-fill.c': 'c',
  'sync-per-phase.c': 'c',
  'mpi-io-strided-view.c': 'c',
  'romio-data-sieving.sh': 'bash',
  'read-once-broadcast.c': 'c',
  'stdio-large-buffer.c': 'c',
} as const;
export type SnippetId = keyof typeof SNIPPETS;

/** A deliberate difference between the default mode and Drishti (listed in the check's docs). */
export interface DrishtiDifference {
  readonly id: string;
  readonly description: string;
}

/**
 * Everything about a check that is data: identity, wording, options, recommendations, Drishti compatibility. One
 * meta for every check: the log checks (P, M, S, D), the trace checks over a trace's views (T) and user rules.
 */
export interface CheckMeta<O extends string, M extends string, R extends string> extends CheckWording {
  /** `builtin` (src/checks) or `user` (a rule file, docs/trace.md). Default builtin. */
  readonly source?: 'builtin' | 'user';
  /** The I/O interface it judges (`trace`: the calls of a trace's views, whatever their layer). */
  readonly layer: 'POSIX' | 'MPI-IO' | 'STDIO' | 'HDF5' | 'job' | 'trace';
  /** The finest level its details address (`record`: a record of a trace view). */
  readonly scope: 'job' | 'file' | 'rank' | 'record';
  /** Level it proposes for its insights (the level rule then caps it by the cost; configurable per code). */
  readonly level: Level;
  /** Facts it reads; when one is unavailable the check is not applicable. */
  readonly requires: readonly FactName[];
  /** It judges a trace's scored views (`ctx.views()`): not applicable to a report without them. */
  readonly views?: boolean;
  /**
   * A log check `iolens trace` runs too, beside the trace checks, wherever its facts exist: on the time model any
   * trace builds (D20), or on the log's own counters when the trace is a log's DXT (D13, whose per-rank evidence the
   * views do not have).
   */
  readonly traces?: boolean;
  readonly options: Readonly<Record<O, OptionSpec>>;
  /** Message templates with named placeholders (`{count}`, `{ratio:pct}`, `{file}`…): the insight line and details. */
  readonly messages: Readonly<Record<M, string>>;
  readonly recommendations: Readonly<Record<R, RecommendationSpec>>;
  /**
   * Modes the check runs in (default: every mode). The diagnosis checks (`src/checks/diagnosis/`) run only in the
   * default mode, so `--drishti` stays exactly Drishti.
   */
  readonly modes?: readonly Mode[];
  /**
   * Codes this check replaces in the modes it runs in: the superseded checks are skipped there (outcome
   * `notApplicable`, reason "superseded by …"), and still run in the other modes.
   */
  readonly supersedes?: readonly string[];
  readonly compat: {
    /** The Drishti code this check reproduces (its own code); absent for checks Drishti has no equivalent of. */
    readonly drishti?: string;
    /** Knobs Drishti lists in its THRESHOLDS panel when this check fires (default: every option's knob). */
    readonly marks?: readonly Knob[];
    /** What the default mode does differently from `--drishti`. */
    readonly differences?: readonly DrishtiDifference[];
  };
}

/** A detail line as a check produces it. */
export interface DetailInput<M extends string> {
  readonly messageId: M;
  readonly data: MessageData;
  readonly subject: Subject;
}

/**
 * What a problem costs as a check states it: seconds of the job's I/O time (from the time model: `io.time`), in the
 * slowest rank's semantics (what the job waited: imbalance) or summed over ranks (the calls' time; the default), and
 * how sure (`time`: the time of the calls that show the pattern; `bound`: an upper bound). The runner adds the shares
 * of the I/O and run time.
 */
export interface CostInput {
  readonly seconds: number;
  readonly semantics?: CostSemantics;
  readonly basis?: 'time' | 'bound';
}

/** An insight as a check produces it; the runner adds code, panel, texts and thresholds. */
export interface FindingInput<M extends string, R extends string> {
  /** The level this insight proposes (default: `meta.level`); the level rule caps it by the cost, a config override wins. */
  readonly level?: Level;
  /** What the problem costs in seconds (every problem finding states it; sorts the report). */
  readonly cost?: CostInput;
  /**
   * What fixing it would save: the work the problem's calls did, which `savings.ts` sets against the same work done
   * well (or, `kind: 'known'`, savings the check computed from its own evidence). A HIGH/WARN finding that states a
   * cost and no savings gets an upper bound (between none and all of its cost).
   */
  readonly savings?: SavingsInput;
  readonly messageId: M;
  readonly data: MessageData;
  readonly evidence?: readonly Evidence[];
  readonly details?: readonly DetailInput<M>[];
  /**
   * How many details the finding has, when `details` holds only the first `ctx.detailLimit` of them (a check that may
   * name every file of a log stops building details there); default `details.length`.
   */
  readonly detailCount?: number;
  readonly recommendations?: readonly R[];
}

/** Inputs from outside the log (the CLI finds them; the library takes them as options). */
export interface CheckEnvironment {
  /** Compute nodes of the job (`--nodes` or Slurm `sacct`), or null when unknown. */
  readonly nodes: number | null;
  /** The application's MPI-IO hints (`--hints`), or null when not given. */
  readonly applicationHints: HintsInfo | null;
}

/** What `run` receives. Pure: everything a check may read is here. */
export interface CheckContext<O extends string, M extends string, R extends string> {
  readonly mode: Mode;
  readonly options: Readonly<Record<O, number>>;
  readonly env: CheckEnvironment;
  /** A required fact (throws FactUnavailable, making the check not applicable). */
  fact<K extends FactName>(name: K): FactValues[K];
  /** An optional fact, or null. */
  tryFact<K extends FactName>(name: K): FactValues[K] | null;
  /** Whether the log has records of a module (`'MPI-IO'`, `'H5F'`…). */
  hasModule(name: string): boolean;
  /** A detail subject for a file record id. */
  file(id: bigint, rank?: number): Subject;
  /** The trace's scored views (checks with `meta.views`; throws, making the check not applicable, without them). */
  views(): TraceViews;
  /**
   * How many details of a finding the report keeps (`Infinity` unless the output shows only a few: the terminal
   * shows 10); the runner drops the rest and counts them. A check whose details may be thousands can stop building
   * them here and pass their number as `detailCount`.
   */
  readonly detailLimit: number;
  /**
   * Emits one insight (a check may emit none, one, or — P10 in Drishti mode — the same twice). A function-typed
   * property, not a method, so that the context is checked strictly: a run helper of `families/` typed for messages
   * `'many' | 'file'` accepts no check whose meta lacks one of them.
   */
  readonly report: (insight: FindingInput<M, R>) => void;
}

/** A check module's default export. */
export interface Check<O extends string = string, M extends string = string, R extends string = string> {
  readonly meta: CheckMeta<O, M, R> & { readonly docsUrl: string };
  run(ctx: CheckContext<O, M, R>): void;
}

/** Type-erased check for registries and runners. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCheck = Check<any, any, any>;

export type { FactContext };
