// What a clustering feature is, for people: a label and a unit, so that thresholds and medians read in human units
// ("share of accesses that are writes of 0–100 B > 50%", "bytes moved > 1.5 GiB"). The words and units come from the
// one name table (src/text/feature-names.ts), shared with the SHAP plots and `explain`.
import type { FeatureColumn } from '../contract/features.js';
import { FEATURE_SETS } from '../features/registry.js';
import { formatPercent } from '../text/format.js';
import { featureName, formatNumber, unitText, type FeatureUnit } from '../text/feature-names.js';

/** The unit a value is worded in. */
export type ValueUnit = FeatureUnit;

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

function describeRegistry(column: string, c: FeatureColumn): FeatureInfo {
  const f = featureName(column);
  // The registry's unit is the truth about storage (log10 or not); the name table gives the words and the unit of
  // the quantity (src/text/feature-names.test.ts checks they agree on every column).
  const log10 = c.unit === 'log10';
  const unit: ValueUnit = f.source === 'table' ? f.unit : log10 ? 'count' : c.unit === 'none' ? 'number' : c.unit;
  return { name: column, label: f.name, unit, log10, logTransform: !log10 && unit !== 'ratio', timing: unit === 'seconds', source: 'registry' };
}

const REGISTRY: ReadonlyMap<string, FeatureInfo> = new Map(
  FEATURE_SETS.flatMap((set) => set.columns.map((c) => [`${set.columnPrefix}${c.name}`, describeRegistry(`${set.columnPrefix}${c.name}`, c)] as const)),
);

/**
 * Describes a column: its name and unit from the one name table (src/text/feature-names.ts), whether it is stored
 * as log10 from the feature-set registry when it declares the column; other columns are taken as stored in their unit.
 */
export function describeFeature(column: string): FeatureInfo {
  const known = REGISTRY.get(column);
  if (known) return known;
  const f = featureName(column);
  return { name: column, label: f.name, unit: f.unit, log10: false, logTransform: true, timing: f.unit === 'seconds', source: 'name' };
}

export { formatNumber };

/** A value of a feature (as stored) in the words of its unit: `4.00 KiB`, `50.0%`, `2.50 s`, `1,024`. */
export function formatFeatureValue(info: FeatureInfo, stored: number): string {
  return unitText(info.unit, info.log10 ? 10 ** stored - 1 : stored, info.log10);
}

/** A one-split rule in words: `<feature> > <value> in 96% of its jobs; its sibling in 3%`. */
export function ruleWords(
  info: FeatureInfo,
  rule: { direction: '<=' | '>'; threshold: number; shareInNode: number; shareInSibling: number },
  siblings = 1,
): string {
  const other = siblings > 1 ? 'its siblings' : 'its sibling';
  // A cut at nothing says whether the jobs do it at all ("share of bytes read = 0", not "≤ 0%").
  const none = (info.log10 ? 10 ** rule.threshold - 1 : rule.threshold) <= 0;
  const cut = none ? `${info.label} ${rule.direction === '<=' ? '= 0' : '> 0'}` : `${info.label} ${rule.direction === '<=' ? '≤' : '>'} ${formatFeatureValue(info, rule.threshold)}`;
  return `${cut} in ${formatPercent(rule.shareInNode)} of its jobs; ${other} in ${formatPercent(rule.shareInSibling)}`;
}
