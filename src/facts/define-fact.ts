import type { FactSource } from './source.js';
import type { FactName, FactValues } from './types.js';

/**
 * A fact: one named quantity derived from a log, computed at most once per report (Lighthouse's computed
 * artifacts). `compute` returns null when the fact does not exist for this log (its module is absent), which makes
 * the checks that require it not applicable.
 */
/** What a fact's `compute` may ask for: other facts (memoised by the fact context). */
export interface FactReader {
  tryGet<F extends FactName>(name: F): FactValues[F] | null;
  get<F extends FactName>(name: F): FactValues[F];
}

export interface FactDefinition<K extends FactName = FactName> {
  readonly name: K;
  readonly description: string;
  compute(source: FactSource, facts: FactReader): FactValues[K] | null;
  /**
   * The counters each field is computed from, for fields whose counters an input derived from a trace may lack
   * (`facts/counters/`). When some are absent the fact is still computed and only those fields are withheld: a
   * check that reads one is not applicable. A counter read that is absent and not listed here makes the whole fact
   * unavailable. Darshan logs are not affected.
   */
  readonly fieldCounters?: { readonly [F in keyof FactValues[K]]?: readonly string[] };
}

/** Declares a fact; the default export of every file under `facts/` (except the framework files). */
export function defineFact<K extends FactName>(def: FactDefinition<K>): FactDefinition<K> {
  return Object.freeze(def);
}
