import type { Problem } from '../contract/finding.js';
import { formatBytes, formatCount, formatPercent } from '../text/format.js';
import { COUNTER_WORDS, counterStem, featureName, unitText } from '../text/feature-names.js';
import { countsOfFeature, problemsOfFeature, roleOfFeature, type FeatureRole } from '../features/problems.js';
import { featureColumnOf } from './features.js';
import { HISTORY_FEATURES } from './history.js';
import { PREDICTED_PREFIX } from './bundle.js';

/**
 * Features in plain words, and the I/O problems they stand for. The words are the one name table's
 * (src/text/feature-names.ts: `featureName`, shared with the dashboard and the SHAP plots); `STEMS` adds to its
 * counter stems the problems they stand for; a feature's stem is read from its feature-set documentation (which names the counter it comes from:
 * `log10(POSIX_SIZE_WRITE_1K_10K + 1)`) or, for columns of other tables, from its name (`darshan_tot_stats_posix`).
 * The problem tags of a feature-set column come from the feature → problem map (src/features/problems.ts, which
 * covers every column and is what the lab's blame test scores); a column of another table takes its stem's tags.
 * The same words and tags serve `explain` and the blame→finding map of the report's learned section.
 */

/** Requests below 1 MiB are small (Drishti's rule, the report's small-reads/small-writes checks). */
const SMALL_BINS = new Set(['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M']);

interface Stem {
  /** Matched against the upper-cased counter or column name, as a whole `_`-separated part. */
  readonly stem: string;
  readonly words: string;
  readonly problems: readonly Problem[];
  /** Default `behaviour` (src/features/problems.ts `FeatureRole`). */
  readonly role?: FeatureRole;
}

/** The problems a counter stem stands for (the words are the name table's, src/text/feature-names.ts). */
function stemProblems(stem: string): readonly Problem[] {
  const size = /^SIZE_(READ|WRITE)_(.+)$/.exec(stem);
  if (size) return SMALL_BINS.has(size[2]) ? [size[1] === 'READ' ? 'small-reads' : 'small-writes'] : [];
  if (/^STRIDE\d_/.test(stem)) return ['strided-access'];
  const map: Record<string, readonly Problem[]> = {
    F_VARIANCE_RANK_BYTES: ['rank-imbalance'],
    RW_SWITCHES: ['rw-switches'],
    FILE_NOT_ALIGNED: ['misaligned-file'],
    MEM_NOT_ALIGNED: ['misaligned-memory'],
    FDSYNCS: ['excessive-fsync'],
    FSYNCS: ['excessive-fsync'],
    SEEKS: ['metadata-heavy'],
    STATS: ['metadata-heavy'],
    OPENS: ['metadata-heavy'],
    FILENOS: ['metadata-heavy'],
    DUPS: ['metadata-heavy'],
    RENAME_SOURCES: ['metadata-heavy'],
    RENAME_TARGETS: ['metadata-heavy'],
    RENAMED_FROM: ['metadata-heavy'],
    INDEP_WRITES: ['no-collective'],
    INDEP_READS: ['no-collective'],
  };
  return map[stem] ?? [];
}

const STEM_ROLES: Record<string, FeatureRole> = {
  MEM_ALIGNMENT: 'configuration',
  FILE_ALIGNMENT: 'configuration',
  STRIPE_SIZE: 'configuration',
  STRIPE_WIDTH: 'configuration',
  BYTES_READ: 'context',
  BYTES_WRITTEN: 'context',
  NPROCS: 'context',
};

/** Stems, most specific first (the first that matches wins): the name table's counter words with their problems. */
export const STEMS: readonly Stem[] = COUNTER_WORDS.map((c) => ({ stem: c.stem, words: c.words, problems: stemProblems(c.stem), ...(STEM_ROLES[c.stem] ? { role: STEM_ROLES[c.stem] } : {}) }));

/** The counter a feature-set column documents (`POSIX_SIZE_WRITE_1K_10K` from `log10(POSIX_SIZE_WRITE_1K_10K + 1)`). */
function documentedCounter(doc: string): string | null {
  const m = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/.exec(doc);
  return m ? m[0] : null;
}

function matchStem(upper: string): Stem | null {
  const stem = counterStem(upper);
  return stem === null ? null : (STEMS.find((s) => s.stem === stem) ?? null);
}

/** How a feature reads in words, how to print its value, and which problems its blame points to. */
export interface FeatureWords {
  /** Plain words (`writes of 1–10 KiB`, `stat calls`), or the name itself when nothing better is known. */
  readonly words: string;
  /** The name shown with the value: the Darshan counter when the feature is one counter, else the column. */
  readonly label: string;
  /** `log10`: the value is log10(x + 1) of the counter (printed as x); `ratio`: a share; `bytes`; `plain`. */
  readonly scale: 'log10' | 'ratio' | 'bytes' | 'plain';
  readonly problems: readonly Problem[];
  /**
   * What the feature is: a pattern of the job's I/O, a setting, or context (scale, server load, history). A column of
   * another table whose name matches no counter stem is context: it is not something the job's I/O did.
   */
  readonly role: FeatureRole;
}

/** The words, label, value scale and problem tags of a feature column. */
export function describeFeature(name: string): FeatureWords {
  if (name.startsWith(PREDICTED_PREFIX)) {
    const inner = describeFeature(name.slice(PREDICTED_PREFIX.length));
    return { ...inner, words: `${inner.words} (predicted before the run)`, label: name, problems: [], role: 'context' };
  }
  if (name === HISTORY_FEATURES[0]) return { words: 'what earlier runs of the application achieved (median)', label: name, scale: 'plain', problems: [], role: 'context' };
  if (name === HISTORY_FEATURES[1]) return { words: 'earlier runs of the application', label: name, scale: 'plain', problems: [], role: 'context' };
  const loc = featureColumnOf(name);
  if (loc) {
    const counter = documentedCounter(loc.column.doc);
    const scale = loc.column.unit === 'log10' ? 'log10' : loc.column.unit === 'ratio' ? 'ratio' : loc.column.unit === 'bytes' ? 'bytes' : 'plain';
    const single = scale !== 'ratio' && counter !== null && (loc.column.doc === counter || new RegExp(`^log10\\(${counter} \\+ 1\\)$`).test(loc.column.doc) || loc.column.doc.startsWith(`${counter} (`));
    // The words are the name table's (src/text/feature-names.ts), shared with the dashboard and the SHAP plots.
    const words = featureName(name).name;
    return {
      words,
      label: single ? counter : name,
      scale,
      problems: problemsOfFeature(name),
      role: roleOfFeature(name),
    };
  }
  // A column of another table (an imported feature table): its name says more than guessed words would (TOKIO's
  // `darshan_num_bytes_read_posix` counts files, not bytes); its counter stem still names the problem.
  const stem = matchStem(name.toUpperCase());
  return { words: featureName(name).name, label: name, scale: 'plain', problems: stem ? stem.problems : [], role: stem ? (stem.role ?? 'behaviour') : 'context' };
}

/**
 * What a column is for the reference its blame is weighed against (docs/learn.md, "What blame is weighed against"):
 * - `counter`: counts what the job did — requests, calls, files, bytes moved, time spent in operations; 0 means it
 *   did not do it, so 0 is its reference and a job that did none is never blamed for it;
 * - `setting`: a choice of the user (alignment, striping), weighed against its typical value;
 * - `context`: what the job is or meets (process count, file-system load, the scheduler, history), against its
 *   typical value.
 * Feature-set columns take it from the feature → problem map (src/features/problems.ts); a column of another table
 * is a counter when its name has a counter stem and is not a rate, a share or a server-side measure.
 */
export type ColumnRole = 'counter' | 'setting' | 'context';

/** Other tables' columns that measure a rate or a share, never a count of the job's own. */
const RATE = /(^|_)(per_sec|per_s|rate|bw|cpu|load|frac|pct|percent|perc|full|ratio|share)(_|$)/;
/** Other tables' columns of the servers, the scheduler or the network (by their prefix): context. */
const NOT_THE_JOB = /^(fs|lmt|oss|ost|mds|mdt|server|fshealth|jobsdb|topology|slurm|sched)_/;

export function columnRole(name: string): ColumnRole {
  const d = describeFeature(name);
  if (d.role === 'configuration') return 'setting';
  if (name.startsWith(PREDICTED_PREFIX) || (HISTORY_FEATURES as readonly string[]).includes(name)) return 'context';
  if (featureColumnOf(name)) return countsOfFeature(name) ? 'counter' : 'context';
  const lower = name.toLowerCase();
  if (RATE.test(lower) || NOT_THE_JOB.test(lower)) return 'context';
  const stem = matchStem(name.toUpperCase());
  // no counter stem: bytes, files or time the job moved, touched or spent still count what it did
  if (stem === null) return /_(bytes|files|time)$/.test(lower) ? 'counter' : 'context';
  return stem.role === 'configuration' ? 'setting' : stem.role === 'context' && !/^BYTES_/.test(stem.stem) ? 'context' : 'counter';
}

/** The problem tags a feature's blame stands for (empty when it names none). */
export function problemsOf(name: string): readonly Problem[] {
  return describeFeature(name).problems;
}

/** A value as the user knows it: the counter behind a log10 feature, a share as a percentage, bytes in IEC units. */
export function valueText(name: string, value: number | string | null): string {
  if (value === null) return 'not recorded';
  if (typeof value === 'string') return value === '' ? '(none)' : value;
  if (Number.isNaN(value)) return 'not recorded';
  const d = describeFeature(name);
  const v = d.scale === 'log10' ? 10 ** value - 1 : value;
  if (d.scale === 'ratio') return formatPercent(v);
  // The unit of the quantity is the name table's: a log10 column of bytes prints as bytes, of seconds as seconds.
  // A column of another table is printed as it is (TOKIO's num_bytes columns count files, not bytes).
  const known = featureName(name.startsWith(PREDICTED_PREFIX) ? name.slice(PREDICTED_PREFIX.length) : name);
  const unit = known.source === 'table' ? known.unit : 'number';
  if (d.scale === 'bytes' || unit === 'bytes') return formatBytes(d.scale === 'log10' ? Math.round(v) : v);
  if (unit === 'seconds' || unit === 'MiB/s' || unit === 'bytes/s') return unitText(unit, v);
  return numberText(v);
}

/** A number in few characters: integers with separators, others with three significant digits. */
export function numberText(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const r = Math.round(v);
  if (Math.abs(v - r) < 1e-6 * Math.max(1, Math.abs(v)) && Math.abs(r) < 1e15) return formatCount(r);
  if (Math.abs(v) >= 1e15 || (Math.abs(v) < 1e-3 && v !== 0)) return v.toExponential(2);
  return String(Number(v.toPrecision(3)));
}

/** ×f of throughput that a SHAP value in log10(1+y) stands for (10^|shap|). */
export function factorOf(shap: number): number {
  return 10 ** Math.abs(shap);
}

/** What a contribution was weighed against and how it was grouped (src/models/reference.ts). */
export interface ContributionContext {
  /** The value the feature was weighed against when not 0 (the typical training value), as the table holds it. */
  readonly reference?: number | string | null;
  /** Near-duplicate features counted in this line. */
  readonly alike?: readonly string[];
  /** The largest factor the training data can show; beyond it no factor is printed. */
  readonly limit?: number;
}

/**
 * One contribution in plain words: `writes of 1–10 KiB (POSIX_SIZE_WRITE_1K_10K = 52,000) cost ×3.1 of
 * throughput`, or `… raised throughput ×1.4`. The factor is 10^|shap|: exact on the model's log10(1 + y) scale, and
 * a factor of the throughput itself where it is well above 1 MiB/s. With a context: `(… = 512, typical 64)` for a
 * feature weighed against the typical value, `— a setting` for configuration, `— context, not a pattern to fix` for
 * scale, volume, server load and history, `(with 2 alike: …)` for a group, and
 * `by more than the training jobs differ` in place of a factor beyond `limit`.
 */
export function contributionText(c: { feature: string; value: number | string | null; shap: number }, ctx: ContributionContext = {}): string {
  const d = describeFeature(c.feature);
  const f = factorOf(c.shap);
  const typical = ctx.reference !== undefined && ctx.reference !== null ? `, typical ${valueText(c.feature, ctx.reference)}` : '';
  const shown = `${valueText(c.feature, c.value)}${typical}`;
  let what = d.words === d.label ? `${d.label} = ${shown}` : `${d.words} (${d.label} = ${shown})`;
  if (ctx.alike?.length) what += ` (with ${ctx.alike.length} alike: ${ctx.alike.slice(0, 3).join(', ')}${ctx.alike.length > 3 ? ', …' : ''})`;
  if (c.shap === 0) return `${what}: no effect`;
  const setting = d.role === 'configuration' ? ' — a setting' : d.role === 'context' ? ' — context, not a pattern to fix' : '';
  if (ctx.limit !== undefined && f > ctx.limit) {
    return `${c.shap < 0 ? `${what} lowered` : `${what} raised`} throughput by more than the training jobs differ (×${factorDigits(ctx.limit)}): the model extrapolates, no factor${setting}`;
  }
  return `${c.shap < 0 ? `${what} cost ×${factorDigits(f)} of throughput` : `${what} raised throughput ×${factorDigits(f)}`}${setting}`;
}

/** ×3.1, ×1.04, ×250: two decimals near 1, one below 10, none above. */
export function factorDigits(f: number): string {
  if (!Number.isFinite(f)) return 'more than 1e308';
  return f < 1.1 ? f.toFixed(2) : f < 10 ? f.toFixed(1) : f < 1e6 ? f.toFixed(0) : f.toExponential(1);
}
