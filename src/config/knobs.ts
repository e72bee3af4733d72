import type { Unit } from '../report/types.js';

/**
 * The thresholds ("knobs") of the Drishti-compatible checks, with Drishti's configuration names and defaults
 * (../shared/drishti/SPEC.md §4). Checks declare which knob each of their options reads; `--config` files set
 * knobs by these names. The order is the order of the THRESHOLDS panel.
 */
export interface KnobSpec {
  readonly default: number;
  readonly unit: Unit;
  /** THRESHOLDS panel label. */
  readonly label: string;
  readonly description: string;
  /** Accepted range, checked when a config file sets the knob. */
  readonly min?: number;
  readonly max?: number;
}

export const KNOBS = {
  imbalance_operations: {
    default: 0.1,
    unit: 'ratio',
    label: 'Read/write imbalance ratio above',
    description: 'Share of the operations (or bytes) by which reads and writes must differ to call the job read- or write-intensive.',
    min: 0,
    max: 1,
  },
  small_bytes: {
    default: 1048576,
    unit: 'bytes',
    label: 'Small request size below',
    description: 'Request size under which a request is small (trace inputs only; Darshan histograms use their bins up to 1 MiB).',
    min: 0,
  },
  small_requests: {
    default: 0.1,
    unit: 'ratio',
    label: 'Small requests ratio above',
    description: 'Share of small requests among all requests above which small requests are reported (half of it selects the files listed).',
    min: 0,
    max: 1,
  },
  small_requests_absolute: {
    default: 1000,
    unit: 'count',
    label: 'Small requests count above',
    description: 'Number of small requests a job must exceed before small requests are reported.',
    min: 0,
  },
  misaligned_requests: {
    default: 0.1,
    unit: 'ratio',
    label: 'Misaligned requests ratio above',
    description: 'Share of requests not aligned in memory or in the file above which misalignment is reported.',
    min: 0,
    max: 1,
  },
  random_operations: {
    default: 0.2,
    unit: 'ratio',
    label: 'Random requests ratio above',
    description: 'Share of requests that are neither consecutive nor sequential above which random access is reported.',
    min: 0,
    max: 1,
  },
  random_operations_absolute: {
    default: 1000,
    unit: 'count',
    label: 'Random requests count above',
    description: 'Number of random requests a job must exceed before random access is reported.',
    min: 0,
  },
  metadata_time_rank: {
    default: 30,
    unit: 'seconds',
    label: 'Metadata time per rank above',
    description: 'Seconds of metadata operations (open, stat, seek, sync…) above which a rank counts as metadata-bound.',
    min: 0,
  },
  imbalance_size: {
    default: 0.3,
    unit: 'ratio',
    label: 'Per-rank bytes spread above',
    description: '(max − min) / max of the bytes moved by the ranks of one file above which the file is imbalanced.',
    min: 0,
    max: 1,
  },
  imbalance_stragglers: {
    default: 0.15,
    unit: 'ratio',
    label: 'Slowest vs fastest rank gap above',
    description: 'Gap between the slowest and the fastest rank of a shared file (bytes or time, relative to the total) above which stragglers are reported.',
    min: 0,
    max: 1,
  },
  interface_stdio: {
    default: 0.1,
    unit: 'ratio',
    label: 'STDIO share of bytes above',
    description: 'Share of all transferred bytes moved through STDIO above which STDIO use is reported.',
    min: 0,
    max: 1,
  },
  collective_operations: {
    default: 0.5,
    unit: 'ratio',
    label: 'Independent share per file above',
    description: 'Share of independent MPI-IO operations above which a file is listed under missing collective I/O.',
    min: 0,
    max: 1,
  },
  collective_operations_absolute: {
    default: 1000,
    unit: 'count',
    label: 'MPI-IO operations count above',
    description: 'Number of MPI-IO reads (or writes) a job must exceed before missing collective I/O is reported.',
    min: 0,
  },
} as const satisfies Record<string, KnobSpec>;

export type Knob = keyof typeof KNOBS;
export const KNOB_NAMES = Object.keys(KNOBS) as Knob[];

/** Knob values after defaults and config files are merged. */
export type KnobValues = Readonly<Record<Knob, number>>;

export function defaultKnobValues(): KnobValues {
  const out = {} as Record<Knob, number>;
  for (const k of KNOB_NAMES) out[k] = KNOBS[k].default;
  return out;
}
