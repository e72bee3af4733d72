// What a clustering feature is, for people: a label and a unit, so that thresholds and medians read in human units
// ("share of accesses that are writes of 0–100 B > 50%", "bytes moved > 1.5 GiB"). Columns of the feature-set
// registry are described from their declared unit; other columns (imported tables) from their name.
import type { FeatureColumn } from '../contract/features.js';
import { FEATURE_SETS } from '../features/registry.js';
import { formatBytes, formatCount, formatPercent, formatRate, formatSeconds } from '../text/format.js';

/** The unit a value is worded in. */
export type ValueUnit = 'bytes' | 'seconds' | 'count' | 'ratio' | 'bytes/s' | 'MiB/s' | 'number';

export interface FeatureInfo {
  /** Column name in the source table. */
  readonly name: string;
  /** Words for the quantity ("share of bytes read", "processes"); the column name when nothing better is known. */
  readonly label: string;
  /** Unit of the quantity the label names. */
  readonly unit: ValueUnit;
  /** The stored value is log10(x + 1) of that quantity (Gauge's and AIIO's magnitudes). */
  readonly log10: boolean;
  /**
   * Whether the clustering applies sign(x)·log10(1 + |x|) to the column: not for ratios and values already on a log
   * scale, yes for everything else (counters span many decades).
   */
  readonly logTransform: boolean;
  /** A duration (or its log): an outcome of the job's I/O, kept out of the throughput models' inputs. */
  readonly timing: boolean;
  /** 'registry' when a feature set declares the column, 'name' when label and unit were read from its name. */
  readonly source: 'registry' | 'name';
}

/** Darshan's access-size bins (1024-based: POSIX_SIZE_*_1K_10K counts accesses of 1,025 to 10,240 bytes). */
const SIZE_BINS: Record<string, string> = {
  '0_100': '0–100 B',
  '100_1k': '100 B–1 KiB',
  '1k_10k': '1–10 KiB',
  '10k_100k': '10–100 KiB',
  '100k_1m': '100 KiB–1 MiB',
  '1m_4m': '1–4 MiB',
  '4m_10m': '4–10 MiB',
  '10m_100m': '10–100 MiB',
  '100m_1g': '100 MiB–1 GiB',
  '1g_plus': '1 GiB or more',
};

const OPERATIONS: Record<string, string> = {
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

const MAGNITUDES: Record<string, string> = {
  nprocs: 'processes',
  run_time: 'run time',
  total_bytes: 'bytes moved',
  total_accesses: 'accesses',
  total_files: 'files',
  opens: 'opens',
  seeks: 'seeks',
  stats: 'stats',
  read_time: 'cumulative read time',
  write_time: 'cumulative write time',
  meta_time: 'cumulative metadata time',
};

/** Unit of a quantity from its name: bytes, durations, rates; counts otherwise. */
function unitFromName(name: string, fallback: ValueUnit): ValueUnit {
  const n = name.toLowerCase();
  const parts = n.split(/[^a-z0-9]+/);
  if (/bytes/.test(n) && /per_sec|_rate|bandwidth/.test(n)) return 'bytes/s';
  // Darshan's --perf estimates (agg_perf_by_slowest, posix_perf_mibs) are MiB/s.
  if (/mibs$|mib_per_s|perf_by_slowest/.test(n)) return 'MiB/s';
  if (/bytes|_size$|stride\d_stride|access\d_access|alignment/.test(n)) return 'bytes';
  if (parts.includes('time') || parts.includes('seconds') || /_time$|walltime/.test(n)) return 'seconds';
  return fallback;
}

/** Words for a Gauge column (the set's ratios and log10 magnitudes). */
function gaugeLabel(name: string): string | null {
  let m = /^size_(read|write)_(.+)_perc$/.exec(name);
  if (m && SIZE_BINS[m[2]]) return `share of accesses that are ${m[1]}s of ${SIZE_BINS[m[2]]}`;
  m = /^bytes_(read|written)_perc$/.exec(name);
  if (m) return `share of bytes ${m[1]}`;
  m = /^(unique|shared|read_only|read_write|write_only)_files_perc$/.exec(name);
  if (m) return m[1] === 'unique' ? 'share of files opened by one rank' : `share of ${m[1].replace('_', '-')} files`;
  m = /^access(\d)_count_perc$/.exec(name);
  if (m) return `share of accesses of the ${['', 'most', '2nd most', '3rd most', '4th most'][Number(m[1])]} common size`;
  m = /^(.+)_perc$/.exec(name);
  if (m && OPERATIONS[m[1]]) return `${OPERATIONS[m[1]]} per access`;
  m = /^log10_(.+)$/.exec(name);
  if (m && MAGNITUDES[m[1]]) return MAGNITUDES[m[1]];
  return null;
}

function describeRegistry(setId: string, column: string, c: FeatureColumn): FeatureInfo {
  const base = { name: column, source: 'registry' as const };
  if (c.unit === 'log10') {
    const inner = /^log10\((\w+) \+ 1\)/.exec(c.doc)?.[1];
    const label = (setId === 'gauge' ? gaugeLabel(c.name) : null) ?? inner ?? c.name;
    const unit = unitFromName(inner ?? c.name, 'count');
    return { ...base, label, unit, log10: true, logTransform: false, timing: unit === 'seconds' };
  }
  if (c.unit === 'ratio') return { ...base, label: gaugeLabel(c.name) ?? c.doc, unit: 'ratio', log10: false, logTransform: false, timing: false };
  const unit: ValueUnit = c.unit === 'none' ? 'number' : c.unit;
  // Raw counters of a set (AIIO keeps five raw) are named by their Darshan counter; totals have readable docs.
  const label = setId === 'totals' ? c.doc.replace(/\s*\(s\)$/, '') : (/^(\w+) \(job total, raw\)$/.exec(c.doc)?.[1] ?? c.doc);
  return { ...base, label, unit, log10: false, logTransform: true, timing: unit === 'seconds' };
}

const REGISTRY: ReadonlyMap<string, FeatureInfo> = new Map(
  FEATURE_SETS.flatMap((set) => set.columns.map((c) => [`${set.columnPrefix}${c.name}`, describeRegistry(set.id, `${set.columnPrefix}${c.name}`, c)] as const)),
);

/**
 * Describes a column: from the feature-set registry when it declares the column (its unit, and words for Gauge's
 * ratios), otherwise from the name — a name with `bytes` is a byte count (a rate with `per_sec`), one with a `time`
 * part a duration, anything else a plain number.
 */
export function describeFeature(column: string): FeatureInfo {
  const known = REGISTRY.get(column);
  if (known) return known;
  const unit = unitFromName(column, 'number');
  return { name: column, label: column, unit, log10: false, logTransform: true, timing: unit === 'seconds', source: 'name' };
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

/** A value of a feature (as stored) in the words of its unit: `4.00 KiB`, `50.0%`, `2.50 s`, `1,024`. */
export function formatFeatureValue(info: FeatureInfo, stored: number): string {
  const v = info.log10 ? 10 ** stored - 1 : stored;
  switch (info.unit) {
    case 'bytes':
      return formatBytes(info.log10 ? Math.round(v) : v);
    case 'seconds':
      return formatSeconds(v);
    case 'ratio':
      return formatPercent(v);
    case 'bytes/s':
      return formatRate(v);
    case 'MiB/s':
      return formatRate(v * 1048576);
    case 'count':
      return formatNumber(info.log10 ? Math.round(v) : v, 3);
    default:
      return formatNumber(v);
  }
}

/** A one-split rule in words: `<feature> > <value> in 96% of its jobs; its sibling in 3%`. */
export function ruleWords(
  info: FeatureInfo,
  rule: { direction: '<=' | '>'; threshold: number; shareInNode: number; shareInSibling: number },
  siblings = 1,
): string {
  const op = rule.direction === '<=' ? '≤' : '>';
  const other = siblings > 1 ? 'its siblings' : 'its sibling';
  return `${info.label} ${op} ${formatFeatureValue(info, rule.threshold)} in ${formatPercent(rule.shareInNode)} of its jobs; ${other} in ${formatPercent(rule.shareInSibling)}`;
}
