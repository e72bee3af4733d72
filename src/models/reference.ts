import { constantColumns, invertTransform, isTreeKind, typicalRow, type FeatureRoleEntry, type TrainedModel } from '../learn/index.js';
import { quantileSorted } from '../util/stats.js';
import { columnRole, contributionText, describeFeature } from './words.js';
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

/**
 * Each feature's role and reference, derived from its name and kind (`columnRole`) and the training data: a counter
 * is weighed against 0 when 0 is a value training jobs take (inside the training range: at least 0.5 % of them are
 * 0), else against its training median (and a job's 0 still against 0); settings and context against their typical
 * value; a column (nearly) constant in training against the job's own (never blamed). Written into the model file
 * at training (`roles`); files written before get it derived here.
 */
export function deriveRoles(model: TrainedModel): FeatureRoleEntry[] {
  const pre = model.preprocessor;
  const constant = constantColumns(pre);
  return pre.features.map((f) => {
    const role = columnRole(f.name);
    if (f.kind === 'numeric') {
      const s = pre.stats[f.column];
      const reference = constant[f.column] ? 'own' : role === 'counter' && s.lo <= 0 && s.hi >= 0 ? 'zero' : 'typical';
      return { feature: f.name, role, reference };
    }
    const width = f.categories.length + (f.other ? 1 : 0);
    const allConstant = Array.from({ length: width }, (_, i) => constant[f.column + i]).every(Boolean);
    return { feature: f.name, role, reference: allConstant ? 'own' : 'typical' };
  });
}

/** The model's roles: as its file lists them, else derived (files written before they were kept). */
export function modelRoles(model: TrainedModel): FeatureRoleEntry[] {
  return model.roles ?? deriveRoles(model);
}

/** Per feature of the model (its preprocessor's order), whether its reference is 0. */
export function zeroFeatures(model: TrainedModel): boolean[] {
  return modelRoles(model).map((r) => r.reference === 'zero');
}

/** What `explain` needs to weigh each feature against its reference (`baseline: 'typical'`). */
export function referenceChoice(model: TrainedModel): { zeroFeatures: boolean[]; counters: boolean[] } {
  const roles = modelRoles(model);
  return { zeroFeatures: roles.map((r) => r.reference === 'zero'), counters: roles.map((r) => r.role === 'counter') };
}

/** The role (pattern, setting or context) each of the model's features has when blame is ranked. */
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
 * another aggregate or another feature set, with the same sign (a cost and a gain of one counter stay two lines, so
 * no line hides a member that worked the other way). Only contributions with shap ≠ 0 take part; groups come out
 * ordered by |Σ shap| (ties by lead name).
 */
export function groupContributions(contributions: readonly { feature: string; shap: number }[]): ContributionGroup[] {
  const groups = new Map<string, { feature: string; shap: number }[]>();
  for (const c of contributions) {
    if (c.shap === 0) continue;
    // members of opposite sign are never summed into one line: a cost and a gain of one counter are two lines
    const k = `${counterKey(c.feature)}${c.shap < 0 ? '-' : '+'}`;
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
  const roles = modelRoles(model);
  const typical = typicalRow(model);
  const limit = factorLimit(model);
  const pre = model.preprocessor;
  return groupContributions(contributions).map((g) => {
    const fi = pre.features.findIndex((f) => f.name === g.lead);
    const f = pre.features[fi];
    let reference: number | string | null;
    let against: BlameLine['against'] = 'typical';
    if (f.kind === 'numeric') {
      against = roles[fi].reference;
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

/** What an out-of-distribution row's number is (src/learn/predict.ts `isTreeKind`, `clampToRanges`), in words. */
export function oodWords(model: TrainedModel): string {
  const extrapolating = model.members.some((m) => !isTreeKind(m.model.type));
  return `${extrapolating ? 'members that extrapolate see its values clamped into the training range, and are left out where they predict beyond every training job; ' : ''}the interval is widened to hold every training job's throughput: treat it as a rough guess`;
}
