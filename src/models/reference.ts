import { constantColumns, invertTransform, robustMember, typicalRow, type TrainedModel } from '../learn/index.js';
import { quantileSorted } from '../util/stats.js';
import { contributionText, describeFeature } from './words.js';
import type { FeatureRole } from '../features/problems.js';

/**
 * What a job's learned blame is weighed against, feature by feature (docs/learn.md, "What blame is weighed
 * against"). The engine (src/learn/reference.ts) takes, per feature, 0 or the typical training value; this module
 * says which, from what the feature is (`describeFeature(...).role`) and from the training data:
 *
 * - a **behaviour** counter (requests, calls, files of some kind) is weighed against 0, AIIO's reference — "this many
 *   small writes against none" — when 0 is a value jobs take (inside the training range: at least 0.5 % of the
 *   training rows are 0). Where no training job has 0 (every job opens a file), 0 is no job like this one, and the
 *   counter is weighed against the typical job's;
 * - **configuration** (alignment, striping) and **context** (process count, volume, server load, history) against
 *   the typical training value: "512 processes against the typical 64", never "against no processes at all";
 * - categories against the most frequent one;
 * - any column (nearly) constant in training against the job's own value: never blamed.
 */

/** Per feature of the model (its preprocessor's order), whether its reference is 0. */
export function zeroFeatures(model: TrainedModel): boolean[] {
  const pre = model.preprocessor;
  return pre.features.map((f) => {
    if (f.kind !== 'numeric') return false;
    if (describeFeature(f.name).role !== 'behaviour') return false;
    const s = pre.stats[f.column];
    return s.lo <= 0 && s.hi >= 0;
  });
}

/** The role of each of the model's features. */
export function featureRoles(model: TrainedModel): FeatureRole[] {
  return model.preprocessor.features.map((f) => describeFeature(f.name).role);
}

/**
 * The largest factor of the target the training data can show: 10^(q99.5 − q0.5) of its stored training targets in
 * model space. A single feature's contribution beyond it claims a change larger than any two training jobs
 * differ by; such a number is the model extrapolating, and is not printed as a factor.
 */
export function factorLimit(model: TrainedModel): number {
  const y = Float64Array.from(model.reference.y).sort();
  if (y.length < 2) return Infinity;
  return 10 ** (quantileSorted(y, 0.995) - quantileSorted(y, 0.005));
}

export interface ContributionGroup {
  /** The member with the largest |shap|: the line's name and value. */
  readonly lead: string;
  /** The other members (near duplicates: the same counter's average/min/max/total, or two feature sets' copies). */
  readonly alike: readonly string[];
  /** Σ shap of the members (SHAP values add). */
  readonly shap: number;
}

/** Words that say how a counter was aggregated over files or ranks, not what it counts. */
const AGGREGATES = new Set(['tot', 'total', 'ave', 'avg', 'mean', 'min', 'max', 'sum', 'median', 'med']);

/**
 * The counter a feature measures, whatever the aggregate: its label (the Darshan counter a feature-set column
 * documents, so `aiio_posix_seeks` and `gauge_log10_seeks` are both POSIX_SEEKS) with aggregate words dropped
 * (`darshan_max_file_not_aligned_posix` and `darshan_ave_file_not_aligned_posix` are one counter).
 */
export function counterKey(feature: string): string {
  return describeFeature(feature)
    .label.toLowerCase()
    .split('_')
    .filter((w) => !AGGREGATES.has(w))
    .join('_');
}

/**
 * Groups contributions of near-duplicate features into one line each: the same counter (`counterKey`) in
 * another aggregate or another feature set. Only contributions with shap ≠ 0 take part; groups come out ordered by
 * |Σ shap| (ties by lead name).
 */
export function groupContributions(contributions: readonly { feature: string; shap: number }[]): ContributionGroup[] {
  const groups = new Map<string, { feature: string; shap: number }[]>();
  for (const c of contributions) {
    if (c.shap === 0) continue;
    const k = counterKey(c.feature);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return [...groups.values()]
    .map((members) => {
      const sorted = [...members].sort((a, b) => Math.abs(b.shap) - Math.abs(a.shap) || (a.feature < b.feature ? -1 : 1));
      return { lead: sorted[0].feature, alike: sorted.slice(1).map((c) => c.feature), shap: sorted.reduce((s, c) => s + c.shap, 0) };
    })
    .sort((a, b) => Math.abs(b.shap) - Math.abs(a.shap) || (a.lead < b.lead ? -1 : 1));
}

/** One line of a job's learned blame: a group of near-duplicate features, in words, with what it was weighed against. */
export interface BlameLine {
  readonly feature: string;
  readonly value: number | string | null;
  readonly shap: number;
  readonly alike: readonly string[];
  readonly role: FeatureRole;
  /** The value weighed against (as the table holds it): 0 for counters, the typical value otherwise; null when the
   * job's own (a column constant in training). */
  readonly reference: number | string | null;
  /** `zero` (a counter against none), `typical` (the training median or most frequent category), `own` (constant in training). */
  readonly against: 'zero' | 'typical' | 'own';
  /** The factor is beyond what the training data can show (`factorLimit`). */
  readonly beyondData: boolean;
}

/**
 * The lines of one explanation: contributions grouped (`groupContributions`), each with its role and reference, in
 * order of |Σ shap|.
 */
export function blameLines(model: TrainedModel, contributions: readonly { feature: string; value: number | string | null; shap: number }[]): BlameLine[] {
  const byName = new Map(contributions.map((c) => [c.feature, c] as const));
  const zero = zeroFeatures(model);
  const typical = typicalRow(model);
  const constant = constantColumns(model.preprocessor);
  const limit = factorLimit(model);
  const pre = model.preprocessor;
  return groupContributions(contributions).map((g) => {
    const fi = pre.features.findIndex((f) => f.name === g.lead);
    const f = pre.features[fi];
    let reference: number | string | null;
    let against: BlameLine['against'] = 'typical';
    if (f.kind === 'numeric') {
      against = constant[f.column] ? 'own' : zero[fi] ? 'zero' : 'typical';
      reference = against === 'own' ? null : against === 'zero' ? 0 : invertTransform(f.transform, typical[f.column]);
    } else {
      const width = f.categories.length + (f.other ? 1 : 0);
      const c = Array.from({ length: width }, (_, i) => f.column + i).find((col) => typical[col] === 1);
      reference = c === undefined ? null : c - f.column < f.categories.length ? f.categories[c - f.column] : '(other)';
    }
    const lead = byName.get(g.lead)!;
    return { feature: g.lead, value: lead.value, shap: g.shap, alike: g.alike, role: describeFeature(g.lead).role, reference, against, beyondData: 10 ** Math.abs(g.shap) > limit };
  });
}

/** The words of a blame line (`contributionText` with its reference, group and the data's limit). */
export function blameText(model: TrainedModel, line: BlameLine): string {
  return contributionText(line, { reference: line.against === 'typical' ? line.reference : undefined, alike: line.alike, limit: factorLimit(model) });
}

/** What an out-of-distribution row's number is (src/learn/predict.ts `robustMember`), in words. */
export function oodWords(model: TrainedModel): string {
  const r = robustMember(model);
  return r < 0
    ? 'the prediction is a guess'
    : `predicted by the ${model.members[r].model.type === 'gbdt' ? 'gradient-boosted trees' : 'random forest'} alone (trees stay within the training targets; the ensemble would extrapolate): treat it as a rough guess`;
}
