import type { Unit } from '../contract/index.js';

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

const DRISHTI_KNOBS = {
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
    description: 'Request size under which a request is small (trace inputs only, `iolens trace --small-size`; Darshan histograms use their bins up to 1 MiB).',
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

/**
 * Thresholds of the diagnosis checks (default mode only, `src/checks/diagnosis/`, docs/checks/D*.md). They are not
 * Drishti settings: `--config` accepts them in either form, and `--drishti` never lists them.
 */
const DIAGNOSIS_KNOBS = {
  small_share: { default: 0.5, unit: 'ratio', label: 'Small requests share for HIGH above', description: 'Share of requests below 1 MiB, judged at the layer the application called (HDF5/PnetCDF, else MPI-IO, else POSIX), above which small requests are HIGH (above small_requests they are WARN).', min: 0, max: 1 },
  small_time_share: { default: 0.25, unit: 'ratio', label: 'Small-request time share for HIGH above', description: 'Share of the job\'s POSIX and STDIO I/O time spent on files with small requests (each file\'s read or write time weighted by its small share) above which small requests are HIGH: a few small writes to a log file beside large data writes, or the one small write of each file in a storm of opens, cost little.', min: 0, max: 1 },
  small_bytes_share: { default: 0.5, unit: 'ratio', label: 'Bytes in small requests below the application layer above', description: 'Share of an HDF5/PnetCDF file\'s bytes that the layer below (MPI-IO, else POSIX) moves in requests under 1 MiB (a lower bound from the size bins), above which the library splits the application\'s large requests into small ones (tiny chunks, datatype conversion) and they count as small.', min: 0, max: 1 },
  small_min: { default: 16, unit: 'count', label: 'Small requests at least', description: 'Number of small requests (at the application layer) a job must reach before small requests are reported.', min: 0 },
  fsync_per_write: { default: 0.9, unit: 'ratio', label: 'fsync/fdatasync per write above', description: 'fsync + fdatasync calls per write on a file above which the file syncs after (nearly) every write.', min: 0 },
  fsync_min: { default: 16, unit: 'count', label: 'fsync/fdatasync calls at least', description: 'Sync calls on the files that sync per write (each with at least two), together, needed before per-write syncing is reported.', min: 0 },
  strided_share: { default: 0.5, unit: 'ratio', label: 'Strided requests share above', description: 'Share of a file\'s requests that jump forward by a regular stride (Darshan stride counters) above which the access is strided.', min: 0, max: 1 },
  strided_min: { default: 16, unit: 'count', label: 'Strided requests at least', description: 'Strided requests on the files accessed with a stride, together, needed before strided access is reported.', min: 0 },
  large_piece_bytes: { default: 1048576, unit: 'bytes', label: 'Large strided/random piece at least', description: 'Mean request size from which strided or random access is only WARN: each piece then fills whole blocks and stripes.', min: 0 },
  random_min: { default: 32, unit: 'count', label: 'Random requests at least', description: 'Number of random requests (neither sequential nor the first of a rank) needed before random access is reported.', min: 0 },
  random_bytes_min: { default: 8388608, unit: 'bytes', label: 'Random bytes at least (fewer requests)', description: 'Bytes moved by random requests (their number × the mean request of their files) from which random access is reported even below random_min requests: a few jumps of multi-MiB requests are the data itself, not a header rewrite.', min: 0 },
  single_rank_share: { default: 0.9, unit: 'ratio', label: 'One rank\'s share of bytes above', description: 'Share of all bytes moved by the busiest rank above which the job\'s I/O is single-process (nprocs > 1).', min: 0, max: 1 },
  io_bytes_min: { default: 262144, unit: 'bytes', label: 'Bytes moved at least', description: 'Bytes a job (or a file, for per-file checks) must move before volume-based diagnoses apply.', min: 0 },
  rank_spread: { default: 0.5, unit: 'ratio', label: 'Per-rank bytes spread above', description: '(slowest − fastest rank bytes) / slowest rank bytes on a shared file, at the layer the application called (MPI-IO bytes for MPI-IO files), above which the file is imbalanced.', min: 0, max: 1 },
  rank_spread_warn: { default: 0.3, unit: 'ratio', label: 'Per-rank bytes spread for WARN above', description: 'The same spread above which an imbalanced shared file is reported as WARN (HIGH above rank_spread).', min: 0, max: 1 },
  time_imbalance_ratio: { default: 3, unit: 'ratio', label: 'Slowest rank time vs typical above', description: 'How many times the typical (median) rank\'s time in calls, or in untraced gaps inside its I/O phase (fsync), the slowest rank must spend (DXT); without DXT, the slowest rank\'s time must exceed the mean of the others 10 times this, or this when some but not all of the file\'s writes are synced.', min: 1 },
  time_imbalance_consistent_ratio: { default: 3, unit: 'ratio', label: 'Slow rank call time, every call slow', description: 'When the median call of one rank is time_imbalance_ratio times the typical median call (every call slow, as with O_SYNC), its total call time need only exceed the typical rank\'s this many times.', min: 1 },
  time_imbalance_seconds: { default: 0.05, unit: 'seconds', label: 'Slowest rank extra time at least', description: 'Absolute floor: seconds the slowest rank must spend beyond the typical rank before a time imbalance is reported (noise in short runs, MANIFEST caveat 2).', min: 0 },
  time_imbalance_min_requests: { default: 4, unit: 'count', label: 'Requests per rank for timing at least', description: 'Requests each rank must issue on a shared file before its per-rank times are compared (a single slow call is queueing noise, not a straggler).', min: 1 },
  slow_target_ratio: { default: 4, unit: 'ratio', label: 'Median target bandwidth / slow target above', description: "How many times slower than the median storage target (each target's median file bandwidth) a target must be before it is called slow; it must also stand slow_target_spread robust deviations below the median.", min: 1 },
  slow_target_spread: { default: 3.5, unit: 'ratio', label: 'Robust deviations below the median target above', description: "How many median absolute deviations (log bandwidth, scaled to a normal's standard deviation) a slow target must lie below the median target: when targets vary widely, a slow one must stand out of their spread.", min: 0 },
  slow_target_min_files: { default: 3, unit: 'files', label: 'Files per storage target at least', description: 'Files with data on a storage target before its bandwidth is compared (one slow file is a slow rank or node as often as a slow target); the peers compared must be at least this many targets too.', min: 1 },
  slow_target_min_seconds: { default: 1, unit: 'seconds', label: 'Seconds waited for slow targets at least', description: 'Seconds the slowest rank must have waited for the slow storage targets before they are reported (short runs vary by fractions of a second per file whatever the storage).', min: 0 },
  stripe_min_bytes: { default: 1073741824, unit: 'bytes', label: 'Shared file size for striping advice at least', description: 'Bytes a file shared by many ranks must move before its stripe count is judged (small files gain nothing from more stripes).', min: 0 },
  stripe_writers_ratio: { default: 4, unit: 'ratio', label: 'Ranks per stripe above', description: 'Ranks moving data of one shared file per stripe (OST) above which the stripe count is too low for the writers (and the OSTs the job sees allow more).', min: 1 },
  rw_switch_share: { default: 0.25, unit: 'ratio', label: 'Read/write switches per request above', description: 'POSIX read↔write switches per request on a file above which reads and writes alternate.', min: 0, max: 1 },
  rw_switch_min: { default: 16, unit: 'count', label: 'Read/write switches at least', description: 'Switches on the alternating files (each with at least two), together, needed before alternation is reported.', min: 0 },
  rmw_read_share: { default: 0.05, unit: 'ratio', label: 'POSIX reads in a write-only file above', description: 'POSIX bytes read / bytes written at the MPI-IO or HDF5 layer, on a file the application only writes, above which reads come from read-modify-write (data sieving); also POSIX bytes written above the application\'s by this share.', min: 0 },
  redundant_read_factor: { default: 1.5, unit: 'ratio', label: 'Bytes read / file extent above', description: 'Bytes read from a file divided by its extent above which the file is read more than once.', min: 1 },
  metadata_time_share: { default: 0.3, unit: 'ratio', label: 'Metadata share of I/O time above', description: 'Share of POSIX/STDIO I/O time spent in metadata calls (open, stat, close, seek…) above which the job is metadata-heavy.', min: 0, max: 1 },
  metadata_per_data_op: { default: 1, unit: 'ratio', label: 'Metadata calls per data request above', description: 'opens + stats per read/write above which metadata calls dominate the requests.', min: 0 },
  metadata_min: { default: 256, unit: 'count', label: 'Metadata calls at least', description: 'opens + stats a job must reach before metadata load is reported.', min: 0 },
  small_files_min: { default: 256, unit: 'files', label: 'Small files at least', description: 'Number of small files a job must touch before many-small-files is reported.', min: 0 },
  small_file_bytes: { default: 1048576, unit: 'bytes', label: 'Small file below', description: 'Extent under which a file is small.', min: 0 },
  stdio_record_bytes: { default: 65536, unit: 'bytes', label: 'Mean STDIO record below', description: 'Mean STDIO request size under which STDIO records are small.', min: 0 },
  stdio_min: { default: 64, unit: 'count', label: 'STDIO requests at least', description: 'STDIO reads + writes (standard streams left out) a job must reach before STDIO use is reported.', min: 0 },
  misaligned_share: { default: 0.5, unit: 'ratio', label: 'Misaligned block-size requests above', description: 'Share of requests at least one file-system block long whose offset is not block-aligned, above which misalignment is reported.', min: 0, max: 1 },
  misaligned_min: { default: 8, unit: 'count', label: 'Misaligned block-size requests at least', description: 'Misaligned requests of at least one block on the misaligned files, together, needed before misalignment is reported.', min: 0 },
  hl_opens_per_process: { default: 8, unit: 'count', label: 'HDF5/PnetCDF opens per process above', description: 'Opens of one HDF5 or PnetCDF file per process above which the file is reopened again and again.', min: 0 },
  hl_metadata_bytes: { default: 8192, unit: 'bytes', label: 'HDF5/PnetCDF metadata per dataset above', description: 'Bytes an HDF5/PnetCDF file writes at the layer below (MPI-IO, else POSIX) beyond its dataset/variable bytes — headers, attributes, chunk indexes — per dataset or variable, above which the file carries heavy metadata.', min: 0 },
  hl_datasets_min: { default: 128, unit: 'count', label: 'Small HDF5/PnetCDF datasets at least', description: 'Datasets or variables smaller than small_file_bytes a job must write before they are reported.', min: 0 },
  sink_share: { default: 0.5, unit: 'ratio', label: 'One part of the I/O time dominates from', description: 'Share of the job\'s I/O time (summed over ranks) from which one part of the breakdown — metadata calls, syncs, or a library layer\'s own work and waiting around its file-system calls — dominates it and is named (D20).', min: 0, max: 1 },
  high_cost_share: { default: 0.25, unit: 'ratio', label: 'HIGH costs at least (I/O time)', description: 'The level rule: a finding (or a flagged trace record) is HIGH only when the seconds it costs are at least this share of the job\'s I/O time, in the same semantics (slowest rank or summed over ranks), and measured rather than bounded.', min: 0, max: 1 },
  high_run_share: { default: 0.05, unit: 'ratio', label: 'HIGH costs at least (run time)', description: 'The level rule: a finding is HIGH only when the seconds it costs are at least this share of the run time (× processes for a sum over ranks), where the run time is known; a job whose I/O takes less of its run has no HIGH finding.', min: 0, max: 1 },
  warn_cost_share: { default: 0, unit: 'ratio', label: 'WARN costs at least (I/O time)', description: 'The level rule: a problem costing less than this share of the job\'s I/O time (or no measured time at all) is noted (INFO), not raised. The default 0 raises every pattern that costs measurable time, however little on this run: on a parallel file system the same requests cost a round trip each.', min: 0, max: 1 },
  warn_run_share: { default: 0.01, unit: 'ratio', label: 'WARN saves at least (run time), when I/O is not the bottleneck', description: 'The level rule on traces whose I/O takes less than high_run_share of the run: a problem is raised (WARN) only when fixing it would save at least this share of the run time (× processes for a sum over ranks); below, it is noted (INFO). A healthy run stays quiet.', min: 0, max: 1 },
  overlap_io_share: { default: 0.2, unit: 'ratio', label: 'Blocking I/O worth overlapping above', description: 'Share of the run time spent in I/O from which overlapping blocking MPI-IO with computation is suggested (M06/M07, INFO); below it there is little to hide.', min: 0, max: 1 },
  independent_min: { default: 2, unit: 'count', label: 'Independent MPI-IO requests at least', description: 'Independent requests on a collectively opened (or shared) file needed before missing collective I/O is reported.', min: 0 },
} as const satisfies Record<string, KnobSpec>;

/**
 * Thresholds of the trace checks (`iolens trace`, `src/checks/trace/`, T01…): they judge one view record at a time;
 * `small_bytes` above is their "small" too. Their levels, and those of flagged view records, follow the one level rule
 * (high_cost_share, high_run_share, warn_cost_share).
 */
const TRACE_KNOBS = {
  trace_min_time_share: { default: 0.001, unit: 'ratio', label: 'Trace: share of I/O time to be flagged at least', description: 'View records with a smaller share of the trace\'s I/O time are never flagged, whatever their metric (`iolens trace --min-time-share`).', min: 0, max: 1 },
  trace_min_ops: { default: 10, unit: 'count', label: 'Trace: calls a record needs at least', description: 'Calls of the kind judged (reads, writes, metadata calls, reads/writes with a known offset) a view record needs before a share-based trace check judges it.', min: 0 },
  trace_metadata_time_share: { default: 0.5, unit: 'ratio', label: 'Trace: metadata share of a record\'s time above', description: 'Share of a view record\'s I/O time spent in metadata calls (open, stat, close, seek…) above which the record is metadata-heavy.', min: 0, max: 1 },
  trace_small_share: { default: 0.5, unit: 'ratio', label: 'Trace: small requests share above', description: 'Share of a view record\'s reads (writes) smaller than small_bytes above which its reads (writes) are small.', min: 0, max: 1 },
  trace_random_share: { default: 0.2, unit: 'ratio', label: 'Trace: random requests share above', description: 'Share of a view record\'s reads/writes with a known offset that start before the end of the previous access by the same process to the same file, above which its access is random.', min: 0, max: 1 },
  trace_imbalance_factor: { default: 2, unit: 'ratio', label: 'Trace: busiest process vs mean above', description: 'Operations (bytes) of the busiest process of a view record divided by the mean over its processes, above which the record is imbalanced (T02, T03); and the slowest rank\'s bytes over the median rank\'s above which it moves more data rather than straggling (T07).', min: 1 },
  trace_shared_file_procs: { default: 4, unit: 'ranks', label: 'Trace: processes on one file at least', description: 'Processes accessing one file (records of views whose last dimension is the file) from which the file is shared and contended.', min: 2 },
  trace_sync_time_share: { default: 0.2, unit: 'ratio', label: 'Trace: sync share of a record\'s time above', description: 'Share of a view record\'s I/O time spent in sync calls (fsync, fdatasync, MPI_File_sync…) above which the record syncs too much.', min: 0, max: 1 },
  trace_many_files: { default: 100, unit: 'files', label: 'Trace: files per record above', description: 'Distinct files a view record that is not one file (a process, a time window, a directory…) must exceed, with fewer than small_file_bytes per file on average, to touch many small files.', min: 0 },
  trace_slow_call_seconds: { default: 0.01, unit: 'seconds', label: 'Trace: mean read/write time above', description: 'Mean duration of a view record\'s reads and writes above which they may be slow (T11).', min: 0 },
  trace_slow_bandwidth_factor: { default: 2, unit: 'ratio', label: 'Trace: calls slower than the trace\'s bandwidth by', description: 'How many times below the trace\'s own data bandwidth (bytes over time of all its reads and writes) a view record\'s reads and writes must move their bytes to be slow (T11).', min: 1 },
} as const satisfies Record<string, KnobSpec>;

/** Every knob: Drishti's, then the diagnosis checks', then the trace checks'. */
export type Knob = Extract<keyof typeof DRISHTI_KNOBS | keyof typeof DIAGNOSIS_KNOBS | keyof typeof TRACE_KNOBS, string>;
export const KNOBS: Readonly<Record<Knob, KnobSpec>> = { ...DRISHTI_KNOBS, ...DIAGNOSIS_KNOBS, ...TRACE_KNOBS };
/** Drishti's knobs, in the order of its THRESHOLDS panel. */
export const KNOB_NAMES = Object.keys(DRISHTI_KNOBS) as Knob[];
/** The diagnosis checks' knobs. */
export const DIAGNOSIS_KNOB_NAMES = Object.keys(DIAGNOSIS_KNOBS) as Knob[];
/** The trace checks' knobs (`small_bytes`, a Drishti knob, is theirs too). */
export const TRACE_KNOB_NAMES = Object.keys(TRACE_KNOBS) as Knob[];
/** Every knob a configuration may set. */
export const ALL_KNOB_NAMES: readonly Knob[] = [...KNOB_NAMES, ...DIAGNOSIS_KNOB_NAMES, ...TRACE_KNOB_NAMES];

/** Knob values after defaults and config files are merged. */
export type KnobValues = Readonly<Record<Knob, number>>;

export function defaultKnobValues(): KnobValues {
  const out = {} as Record<Knob, number>;
  for (const k of ALL_KNOB_NAMES) out[k] = KNOBS[k].default;
  return out;
}

/** A check's option values (log or trace check): each option reads its knob from `knobs`. */
export function optionValues(options: Readonly<Record<string, { readonly knob: Knob }>>, knobs: KnobValues): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, spec] of Object.entries(options)) out[name] = knobs[spec.knob];
  return out;
}
