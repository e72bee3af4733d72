import type { Problem } from '../contract/index.js';

/**
 * Which problem a job feature points at when a throughput model blames it: the learned diagnosis of a report
 * (src/models/words.ts `problemsOf`, docs/learn.md) and its test on the lab (docs/eval.md, "Blame on the lab"). One
 * place for the whole map: every feature column of the aiio, gauge and totals sets is matched by exactly one rule
 * below (src/eval/blame.test.ts checks it), either naming the problems the counter measures a symptom of, or saying
 * why it names none. A column's full name is its set's prefix plus its name (`aiio_posix_fsyncs`).
 *
 * Blame against the zero baseline falls only on features that are not 0, and grows with their value: a feature can
 * name a problem only when more of it is the symptom. Counters of the healthy pattern (sequential and consecutive
 * requests, the size of the most common request, the bytes moved) name none: their blame says the job did such I/O,
 * not that it lacked it.
 *
 * Time columns (`*_time`, `io_time`, `gauge_log10_*_time`) are not model inputs there: throughput is bytes over time,
 * so they restate the answer rather than explain it.
 */
/**
 * What kind of thing a feature is, which decides what its blame is weighed against (src/models/reference.ts):
 * `behaviour`, a pattern of the job's I/O counted from 0 (requests, calls, files); `configuration`, a setting the
 * user chooses (alignment, striping, hints); `context`, what the job is or meets (process count, volume, server
 * load, history), which no fix of its I/O changes.
 */
export type FeatureRole = 'behaviour' | 'configuration' | 'context';

export interface FeatureRule {
  readonly pattern: RegExp;
  readonly problems: readonly Problem[];
  /** Default `behaviour`. */
  readonly role?: FeatureRole;
  /**
   * A context column that still counts what the job did (its volume: 0 = it moved nothing), so its blame is weighed
   * against 0 like a behaviour counter's (src/models/reference.ts). Behaviour columns are counters by definition.
   */
  readonly counter?: boolean;
  /** What the counter measures, or why it names no problem. */
  readonly why: string;
}

const SMALL = '0_100|100_1k|1k_10k|10k_100k|100k_1m';
const LARGE = '1m_4m|4m_10m|10m_100m|100m_1g|1g_plus';
const MODULES = 'posix|mpiio|h5f|h5d|pnetcdf_file|pnetcdf_var|dfs|daos';

export const FEATURE_RULES: readonly FeatureRule[] = [
  { pattern: /^stdio_/, problems: ['stdio-heavy'], why: 'STDIO traffic (requests, bytes, opens, files): records through stdio buffers' },
  { pattern: new RegExp(`^(aiio_posix|gauge)_size_write_(${SMALL})(_perc)?$`), problems: ['small-writes'], why: 'writes below 1 MiB' },
  { pattern: new RegExp(`^(aiio_posix|gauge)_size_read_(${SMALL})(_perc)?$`), problems: ['small-reads'], why: 'reads below 1 MiB' },
  { pattern: new RegExp(`^(aiio_posix|gauge)_size_(read|write)_(${LARGE})(_perc)?$`), problems: [], why: 'requests of 1 MiB and more: the healthy sizes' },
  { pattern: new RegExp(`^((${MODULES})_writes|aiio_posix_writes|gauge_writes_perc)$`), problems: ['small-writes'], why: 'write requests: for the same bytes, more requests are smaller ones' },
  { pattern: new RegExp(`^((${MODULES})_reads|aiio_posix_reads|gauge_reads_perc)$`), problems: ['small-reads'], why: 'read requests: for the same bytes, more requests are smaller ones' },
  { pattern: /^gauge_log10_total_accesses$/, problems: ['small-writes', 'small-reads'], why: 'requests of both directions' },
  { pattern: /^(aiio_posix_access\d_count|gauge_access\d_count_perc)$/, problems: ['small-writes', 'small-reads', 'misaligned-file'], why: 'requests of the most common sizes: many of them are small or odd sizes' },
  { pattern: /^aiio_posix_access\d_access$/, problems: [], why: 'the most common request sizes themselves: larger is healthier, so their blame names no problem' },
  { pattern: /^aiio_posix_(fsyncs|fdsyncs)$/, problems: ['excessive-fsync'], why: 'fsync and fdatasync calls' },
  { pattern: /^(aiio_posix|gauge)_(seq|consec)_(reads|writes)(_perc)?$/, problems: [], why: 'requests in file order: the healthy pattern (out-of-order access shows in seeks and strides)' },
  { pattern: /^(aiio_posix_seeks|gauge_log10_seeks)$/, problems: ['random-write', 'random-read', 'strided-access'], why: 'repositioning calls' },
  { pattern: /^aiio_posix_stride\d_(stride|count)$/, problems: ['strided-access'], why: 'regular forward jumps' },
  { pattern: /^(aiio_posix_file_not_aligned|gauge_file_not_aligned_perc)$/, problems: ['misaligned-file'], why: 'requests off the file-system block grid' },
  { pattern: /^(aiio_posix_mem_not_aligned|gauge_mem_not_aligned_perc)$/, problems: ['misaligned-memory'], why: 'buffers off the memory alignment' },
  { pattern: /^aiio_posix_file_alignment$/, problems: ['misaligned-file'], role: 'configuration', why: 'the file-system block size requests should align to: a setting' },
  { pattern: /^aiio_posix_mem_alignment$/, problems: ['misaligned-memory'], role: 'configuration', why: 'the memory alignment buffers should have: a setting' },
  { pattern: /^(aiio_posix_rw_switches|gauge_rw_switches_perc)$/, problems: ['rw-switches'], why: 'alternations between reading and writing' },
  {
    pattern: new RegExp(`^((${MODULES})_opens|aiio_posix_(opens|stats|filenos|dups|rename_sources|rename_targets|renamed_from)|gauge_log10_(opens|stats))$`),
    problems: ['metadata-heavy', 'many-small-files'],
    why: 'opens, stats and other metadata calls',
  },
  { pattern: new RegExp(`^((${MODULES})_(files|records)|gauge_log10_total_files)$`), problems: ['many-small-files', 'metadata-heavy'], why: 'files (datasets, variables) and records: how many objects the job touches' },
  { pattern: /^aiio_posix_f_variance_rank_bytes$/, problems: ['rank-imbalance', 'rank0-only-io'], why: 'variance of the bytes per rank' },
  { pattern: /^(aiio_nprocs|gauge_log10_nprocs)$/, problems: [], role: 'context', why: 'process count: a setting of the job, not a pattern of its I/O' },
  { pattern: /^(aiio_lustre_stripe_size|aiio_lustre_stripe_width)$/, problems: [], role: 'configuration', why: 'striping: a setting, not a problem of the vocabulary' },
  { pattern: /^aiio_posix_mmaps$/, problems: [], why: 'mmap use: no problem of the vocabulary' },
  {
    pattern: new RegExp(`^(total_bytes|gauge_log10_total_bytes|gauge_bytes_(read|written)_perc|(${MODULES})_bytes_(read|written)|aiio_posix_bytes_(read|written))$`),
    problems: [],
    role: 'context',
    counter: true,
    why: 'volume and its read/write split: what the job moves, not how (a redundant read is as large as a needed one)',
  },
  { pattern: /^gauge_(unique|shared|read_only|read_write|write_only)_files_perc$/, problems: [], why: 'file categories: the layout, which the problem-specific counters judge' },
];

/** The rule matching a feature column (the first one; the test checks there is exactly one). */
export function featureRule(column: string): FeatureRule | undefined {
  return FEATURE_RULES.find((r) => r.pattern.test(column));
}

/** The problems a blamed feature column points at (none for settings, volumes, layout and time). */
export function problemsOfFeature(column: string): readonly Problem[] {
  return featureRule(column)?.problems ?? [];
}

/** The role of a feature column of a feature set (`behaviour` unless its rule says otherwise). */
export function roleOfFeature(column: string): FeatureRole {
  return featureRule(column)?.role ?? 'behaviour';
}

/** Whether a feature-set column counts what the job did (behaviour, or a volume): its reference is 0. */
export function countsOfFeature(column: string): boolean {
  const r = featureRule(column);
  return (r?.role ?? 'behaviour') === 'behaviour' || r?.counter === true;
}

/** Whether a feature column restates time (excluded from throughput models: throughput is bytes over time). */
export function isTimeFeature(column: string, unit?: string): boolean {
  return unit === 'seconds' || /(^|_)time$/.test(column);
}
