import aiio from './aiio.js';
import type { FeatureSetDefinition } from './define.js';
import gauge from './gauge.js';
import totals from './totals.js';

/** Every feature set, in job-store column order (an explicit list: a meta-test checks it against this folder). */
export const FEATURE_SETS: readonly FeatureSetDefinition[] = [totals, aiio, gauge];

export const FEATURE_SETS_BY_ID: ReadonlyMap<string, FeatureSetDefinition> = new Map(FEATURE_SETS.map((f) => [f.id, f]));

export type { FeatureSetDefinition };
