import type { FeatureColumn, FeatureSet, FeatureValues } from '../contract/features.js';
import type { FactReader } from '../facts/define-fact.js';

/** A feature set with its computation: values in column order, from a log's facts (computed once per log). */
export interface FeatureSetDefinition extends FeatureSet {
  compute(facts: FactReader): FeatureValues;
}

/** Declares a feature set; checks that column names are well-formed and unique. */
export function defineFeatureSet(def: FeatureSetDefinition): FeatureSetDefinition {
  const seen = new Set<string>();
  for (const c of def.columns) {
    if (!/^[a-z0-9_]+$/.test(c.name)) throw new Error(`feature set ${def.id}: bad column name '${c.name}'`);
    if (seen.has(c.name)) throw new Error(`feature set ${def.id}: column '${c.name}' twice`);
    seen.add(c.name);
  }
  return Object.freeze(def);
}

export const col = (name: string, type: FeatureColumn['type'], unit: FeatureColumn['unit'], doc: string): FeatureColumn => ({ name, type, unit, doc });

/** log10(x + 1) of a non-negative magnitude (negative values count as 0). */
export const log1p10 = (x: number): number => Math.log10(Math.max(0, x) + 1);
