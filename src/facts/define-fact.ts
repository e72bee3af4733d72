import type { FactSource } from './source.js';
import type { FactContext } from './fact-context.js';
import type { FactName, FactValues } from './types.js';

/**
 * A fact: one named quantity derived from a log, computed at most once per report (Lighthouse's computed
 * artifacts). `compute` returns null when the fact does not exist for this log (its module is absent), which makes
 * the checks that require it not applicable.
 */
export interface FactDefinition<K extends FactName = FactName> {
  readonly name: K;
  readonly description: string;
  compute(source: FactSource, facts: FactContext): FactValues[K] | null;
}

/** Declares a fact; the default export of every file under `facts/` (except the framework files). */
export function defineFact<K extends FactName>(def: FactDefinition<K>): FactDefinition<K> {
  return Object.freeze(def);
}
