// The one name table of feature columns: a human name and a unit for every column of the feature sets (AIIO, Gauge,
// the per-module totals), the store's job columns, and — from their names — columns of imported tables. The
// dashboard (its axes, rules and SHAP summaries), the SHAP waterfall of the plot model and `explain` all name a
// feature through `featureName`, and print its value through `featureValueText`, so one feature reads the same
// everywhere. It lives in the text layer so that every layer (the browser bundle included) can import it; the
// feature sets themselves are checked against it (src/text/feature-names.test.ts walks the registry).
import { formatBytes, formatCount, formatPercent, formatRate, formatSeconds } from './format.js';

/** The unit a value is worded in. */
export type FeatureUnit = 'bytes' | 'seconds' | 'count' | 'ratio' | 'bytes/s' | 'MiB/s' | 'number';

export interface FeatureName {
  /** The column name. */
  readonly column: string;
  /** The quantity in words (`writes of 1–10 KiB`, `share of bytes read`); the column itself when nothing is known. */
  readonly name: string;
  /** The unit of the quantity the name names. */
  readonly unit: FeatureUnit;
  /** The column stores log10(x + 1) of that quantity (AIIO's and Gauge's magnitudes). */
  readonly log10: boolean;
  /** The Darshan counter the column is a job total of (`POSIX_SIZE_WRITE_1K_10K`), or null. */
  readonly counter: string | null;
  /** Whether the name was read from the table ('table') or guessed from the column's name ('name'). */
  readonly source: 'table' | 'name';
}

/** Darshan's access-size bins (1024-based: `1K_10K` counts accesses of 1,025 to 10,240 bytes). */
export const SIZE_BIN_WORDS: readonly (readonly [string, string])[] = [
  ['0_100', '0–100 B'],
  ['100_1K', '100 B–1 KiB'],
  ['1K_10K', '1–10 KiB'],
  ['10K_100K', '10–100 KiB'],
  ['100K_1M', '100 KiB–1 MiB'],
  ['1M_4M', '1–4 MiB'],
  ['4M_10M', '4–10 MiB'],
  ['10M_100M', '10–100 MiB'],
  ['100M_1G', '100 MiB–1 GiB'],
  ['1G_PLUS', '1 GiB or more'],
];

const ORD = ['', 'most', '2nd most', '3rd most', '4th most'];

/**
 * Darshan counter stems in words, most specific first (the first whose stem is a whole `_`-separated part of an
 * upper-cased name wins), with the unit of the counter.
 */
export const COUNTER_WORDS: readonly { readonly stem: string; readonly words: string; readonly unit: FeatureUnit }[] = [
  ...(['READ', 'WRITE'] as const).flatMap((d) => SIZE_BIN_WORDS.map(([b, w]) => ({ stem: `SIZE_${d}_${b}`, words: `${d === 'READ' ? 'reads' : 'writes'} of ${w}`, unit: 'count' as const }))),
  ...[1, 2, 3, 4].flatMap((k) => [
    { stem: `STRIDE${k}_STRIDE`, words: `the ${ORD[k]} common stride`, unit: 'bytes' as const },
    { stem: `STRIDE${k}_COUNT`, words: `accesses at the ${ORD[k]} common stride`, unit: 'count' as const },
    { stem: `ACCESS${k}_ACCESS`, words: `the ${ORD[k]} common access size`, unit: 'bytes' as const },
    { stem: `ACCESS${k}_COUNT`, words: `accesses of the ${ORD[k]} common size`, unit: 'count' as const },
  ]),
  { stem: 'F_VARIANCE_RANK_BYTES', words: 'the variance of bytes across ranks', unit: 'number' },
  { stem: 'RW_SWITCHES', words: 'switches between reading and writing', unit: 'count' },
  { stem: 'FILE_NOT_ALIGNED', words: 'accesses not aligned to file blocks', unit: 'count' },
  { stem: 'MEM_NOT_ALIGNED', words: 'accesses not aligned in memory', unit: 'count' },
  { stem: 'MEM_ALIGNMENT', words: 'the memory alignment', unit: 'bytes' },
  { stem: 'FILE_ALIGNMENT', words: 'the file alignment', unit: 'bytes' },
  { stem: 'CONSEC_READS', words: 'consecutive reads', unit: 'count' },
  { stem: 'CONSEC_WRITES', words: 'consecutive writes', unit: 'count' },
  { stem: 'SEQ_READS', words: 'sequential reads', unit: 'count' },
  { stem: 'SEQ_WRITES', words: 'sequential writes', unit: 'count' },
  { stem: 'BYTES_READ', words: 'bytes read', unit: 'bytes' },
  { stem: 'BYTES_WRITTEN', words: 'bytes written', unit: 'bytes' },
  { stem: 'FDSYNCS', words: 'fdatasync calls', unit: 'count' },
  { stem: 'FSYNCS', words: 'fsync calls', unit: 'count' },
  { stem: 'SEEKS', words: 'seeks', unit: 'count' },
  { stem: 'STATS', words: 'stat calls', unit: 'count' },
  { stem: 'OPENS', words: 'opens', unit: 'count' },
  { stem: 'FILENOS', words: 'fileno calls', unit: 'count' },
  { stem: 'DUPS', words: 'dup calls', unit: 'count' },
  { stem: 'MMAPS', words: 'mmap calls', unit: 'count' },
  { stem: 'RENAME_SOURCES', words: 'files renamed away', unit: 'count' },
  { stem: 'RENAME_TARGETS', words: 'rename targets', unit: 'count' },
  { stem: 'RENAMED_FROM', words: 'renames', unit: 'count' },
  { stem: 'STRIPE_SIZE', words: 'the Lustre stripe size', unit: 'bytes' },
  { stem: 'STRIPE_WIDTH', words: 'the Lustre stripe count', unit: 'count' },
  { stem: 'INDEP_WRITES', words: 'independent MPI-IO writes', unit: 'count' },
  { stem: 'INDEP_READS', words: 'independent MPI-IO reads', unit: 'count' },
  { stem: 'COLL_WRITES', words: 'collective MPI-IO writes', unit: 'count' },
  { stem: 'COLL_READS', words: 'collective MPI-IO reads', unit: 'count' },
  { stem: 'READS', words: 'read operations', unit: 'count' },
  { stem: 'WRITES', words: 'write operations', unit: 'count' },
  { stem: 'NPROCS', words: 'processes', unit: 'count' },
];

/** The counter stem an upper-cased name contains as whole `_`-separated parts, or null. */
export function counterStem(upper: string): string | null {
  const parts = `_${upper}_`;
  return COUNTER_WORDS.find((s) => parts.includes(`_${s.stem}_`))?.stem ?? null;
}

const wordsOfStem = (stem: string) => COUNTER_WORDS.find((s) => s.stem === stem)!;

/** AIIO keeps these five counters raw; its other columns are log10(x + 1). */
const AIIO_RAW = new Set(['posix_dups', 'posix_mmaps', 'posix_rename_sources', 'posix_rename_targets', 'posix_renamed_from']);

/** Gauge's log10 magnitudes. */
const GAUGE_MAGNITUDES: Record<string, readonly [string, FeatureUnit]> = {
  nprocs: ['processes', 'count'],
  run_time: ['run time', 'seconds'],
  total_bytes: ['POSIX bytes moved', 'bytes'],
  total_accesses: ['POSIX accesses', 'count'],
  total_files: ['POSIX files', 'count'],
  opens: ['POSIX opens', 'count'],
  seeks: ['POSIX seeks', 'count'],
  stats: ['POSIX stat calls', 'count'],
  read_time: ['POSIX read time summed over ranks', 'seconds'],
  write_time: ['POSIX write time summed over ranks', 'seconds'],
  meta_time: ['POSIX metadata time summed over ranks', 'seconds'],
};

/** Gauge's per-access operation shares. */
const GAUGE_OPERATIONS: Record<string, string> = {
  reads: 'reads',
  writes: 'writes',
  rw_switches: 'read/write switches',
  seq_reads: 'sequential reads',
  seq_writes: 'sequential writes',
  consec_reads: 'consecutive reads',
  consec_writes: 'consecutive writes',
  file_not_aligned: 'accesses not aligned in the file',
  mem_not_aligned: 'accesses not aligned in memory',
};

/** The per-module totals' modules in words (src/facts/module-measures.ts `MODULE_TOTALS`, checked by the test). */
export const MODULE_NAMES: Record<string, string> = {
  posix: 'POSIX',
  mpiio: 'MPI-IO',
  stdio: 'STDIO',
  h5f: 'H5F',
  h5d: 'H5D',
  pnetcdf_file: 'PnetCDF file',
  pnetcdf_var: 'PnetCDF variable',
  dfs: 'DFS',
  daos: 'DAOS',
};

const MODULE_MEASURES: Record<string, readonly [string, FeatureUnit]> = {
  records: ['records (file × rank)', 'count'],
  files: ['files', 'count'],
  opens: ['opens', 'count'],
  reads: ['read operations', 'count'],
  writes: ['write operations', 'count'],
  bytes_read: ['bytes read', 'bytes'],
  bytes_written: ['bytes written', 'bytes'],
  read_time: ['read time summed over ranks', 'seconds'],
  write_time: ['write time summed over ranks', 'seconds'],
  meta_time: ['metadata time summed over ranks', 'seconds'],
};

/** Columns of the store's jobs table that models and clusterings may use. */
const JOB_COLUMNS: Record<string, readonly [string, FeatureUnit]> = {
  total_bytes: ['bytes moved (POSIX + STDIO)', 'bytes'],
  nprocs: ['processes', 'count'],
  run_time: ['run time', 'seconds'],
  io_time: ['I/O time (slowest rank)', 'seconds'],
  io_time_cumulative: ['I/O time summed over ranks', 'seconds'],
  io_share: ['I/O share of the run', 'ratio'],
  io_mibs: ['I/O throughput', 'MiB/s'],
  posix_perf_mibs: ["POSIX throughput (Darshan's estimate)", 'MiB/s'],
};

/** Unit of a quantity from its name: bytes, durations, rates; `fallback` otherwise. */
export function unitFromName(name: string, fallback: FeatureUnit): FeatureUnit {
  const n = name.toLowerCase();
  const parts = n.split(/[^a-z0-9]+/);
  if (/bytes/.test(n) && /per_sec|_rate|bandwidth/.test(n)) return 'bytes/s';
  // Darshan's --perf estimates (agg_perf_by_slowest, posix_perf_mibs) are MiB/s.
  if (/mibs$|mib_per_s|perf_by_slowest/.test(n)) return 'MiB/s';
  if (/bytes|_size$|stride\d_stride|access\d_access|alignment/.test(n)) return 'bytes';
  if (parts.includes('time') || parts.includes('seconds') || /_time$|walltime/.test(n)) return 'seconds';
  return fallback;
}

function entry(column: string, name: string, unit: FeatureUnit, log10 = false, counter: string | null = null): FeatureName {
  return { column, name, unit, log10, counter, source: 'table' };
}

function gauge(column: string, rest: string): FeatureName | null {
  let m = /^size_(read|write)_(.+)_perc$/.exec(rest);
  const bin = m ? SIZE_BIN_WORDS.find(([b]) => b.toLowerCase() === m![2]) : undefined;
  if (m && bin) return entry(column, `share of accesses that are ${m[1]}s of ${bin[1]}`, 'ratio');
  m = /^bytes_(read|written)_perc$/.exec(rest);
  if (m) return entry(column, `share of bytes ${m[1]}`, 'ratio');
  m = /^(unique|shared|read_only|read_write|write_only)_files_perc$/.exec(rest);
  if (m) return entry(column, m[1] === 'unique' ? 'share of files opened by one rank' : `share of ${m[1].replace('_', '-')} files`, 'ratio');
  m = /^access(\d)_count_perc$/.exec(rest);
  if (m) return entry(column, `share of accesses of the ${ORD[Number(m[1])]} common size`, 'ratio');
  m = /^(.+)_perc$/.exec(rest);
  if (m && GAUGE_OPERATIONS[m[1]]) return entry(column, `${GAUGE_OPERATIONS[m[1]]} per access`, 'ratio');
  m = /^log10_(.+)$/.exec(rest);
  if (m && GAUGE_MAGNITUDES[m[1]]) return entry(column, GAUGE_MAGNITUDES[m[1]][0], GAUGE_MAGNITUDES[m[1]][1], true);
  return null;
}

function aiio(column: string, rest: string): FeatureName | null {
  const log10 = !AIIO_RAW.has(rest);
  if (rest === 'nprocs') return entry(column, 'processes', 'count', true);
  const counter = rest.startsWith('lustre_') ? rest.toUpperCase() : rest.startsWith('posix_') ? rest.toUpperCase() : null;
  if (!counter) return null;
  const stem = counterStem(counter);
  if (!stem) return null;
  const w = wordsOfStem(stem);
  return entry(column, w.words, w.unit, log10, counter);
}

function moduleTotal(column: string): FeatureName | null {
  for (const [key, module] of Object.entries(MODULE_NAMES)) {
    if (!column.startsWith(`${key}_`)) continue;
    const m = MODULE_MEASURES[column.slice(key.length + 1)];
    if (m) return entry(column, `${module} ${m[0]}`, m[1]);
  }
  return null;
}

/**
 * The name and unit of a feature column: from the table for the feature sets' and the store's columns, else from
 * its name (an imported table's `darshan_tot_bytes_read_posix` stays itself, a byte count).
 */
export function featureName(column: string): FeatureName {
  const known =
    (column.startsWith('gauge_') ? gauge(column, column.slice(6)) : null) ??
    (column.startsWith('aiio_') ? aiio(column, column.slice(5)) : null) ??
    (JOB_COLUMNS[column] ? entry(column, JOB_COLUMNS[column][0], JOB_COLUMNS[column][1]) : null) ??
    moduleTotal(column);
  if (known) return known;
  return { column, name: column, unit: unitFromName(column, 'number'), log10: false, counter: null, source: 'name' };
}

/** A number with at most `digits` significant digits, without trailing zeros or exponent for everyday sizes. */
export function formatNumber(v: number, digits = 4): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return formatCount(v);
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e15) {
    const s = Number(v.toPrecision(digits));
    return Number.isInteger(s) ? formatCount(s) : String(s);
  }
  return v.toPrecision(digits).replace(/\.?0+e/, 'e');
}

/** A quantity (not the stored value: no log10 undone) in the words of a unit: `4.00 KiB`, `50.0%`, `2.50 s`, `1,024`. */
export function unitText(unit: FeatureUnit, v: number, round = false): string {
  switch (unit) {
    case 'bytes':
      return formatBytes(round ? Math.round(v) : v);
    case 'seconds':
      return formatSeconds(v);
    case 'ratio':
      return formatPercent(v);
    case 'bytes/s':
      return formatRate(v);
    case 'MiB/s':
      return formatRate(v * 1048576);
    case 'count':
      return formatNumber(round ? Math.round(v) : v, 3);
    default:
      return formatNumber(v);
  }
}

/** The quantity a stored value stands for: 10^v − 1 for a log10 column, the value itself otherwise. */
export function featureQuantity(f: FeatureName, stored: number): number {
  return f.log10 ? 10 ** stored - 1 : stored;
}

/** A stored value of a column in the words of its unit (a log10 column's value undone first). */
export function featureValueText(column: string | FeatureName, stored: number): string {
  const f = typeof column === 'string' ? featureName(column) : column;
  return unitText(f.unit, featureQuantity(f, stored), f.log10);
}
