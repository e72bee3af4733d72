import type { FactSource } from './source.js';
import type { FactName, FactValues } from './types.js';
import { FACTS } from './registry.js';

/** Thrown when a required fact does not exist for this log; the check runner turns it into `notApplicable`. */
export class FactUnavailable extends Error {
  constructor(readonly fact: FactName) {
    super(`fact '${fact}' is not available for this log`);
    this.name = 'FactUnavailable';
  }
}

/**
 * Memoised access to facts. Built either over a log (facts computed on first request) or over hand-made values
 * (unit tests): with `values`, facts not given are unavailable.
 */
export class FactContext {
  private readonly cache = new Map<FactName, unknown>();
  /** Modules each computed fact read, its dependencies' included. */
  private readonly modules = new Map<FactName, ReadonlySet<string>>();
  /** Collector of the fact being computed (nested computations merge into it). */
  private current: Set<string> | null = null;

  private constructor(
    private readonly source: FactSource | null,
    values?: Partial<FactValues>,
  ) {
    if (values) for (const [k, v] of Object.entries(values)) this.cache.set(k as FactName, v ?? null);
    if (source) source.onRead = (m) => this.current?.add(m);
  }

  static forLog(source: FactSource): FactContext {
    return new FactContext(source);
  }

  /** Facts given by hand (check unit tests); any other fact is unavailable. */
  static fromValues(values: Partial<FactValues>): FactContext {
    return new FactContext(null, values);
  }

  /** The fact's value, or null when it does not exist for this log. */
  tryGet<K extends FactName>(name: K): FactValues[K] | null {
    if (this.cache.has(name)) {
      for (const m of this.modules.get(name) ?? []) this.current?.add(m);
      return this.cache.get(name) as FactValues[K] | null;
    }
    if (!this.source) return null;
    const outer = this.current;
    const mine = new Set<string>();
    this.current = mine;
    try {
      const v = FACTS[name].compute(this.source, this) as FactValues[K] | null;
      this.cache.set(name, v);
      this.modules.set(name, mine);
      return v;
    } finally {
      this.current = outer;
      for (const m of mine) outer?.add(m);
    }
  }

  /** The Darshan modules a fact was computed from (empty for facts not computed, or given by hand). */
  modulesOf(name: FactName): ReadonlySet<string> {
    return this.modules.get(name) ?? new Set();
  }

  /** The fact's value; throws FactUnavailable when it does not exist for this log. */
  get<K extends FactName>(name: K): FactValues[K] {
    const v = this.tryGet(name);
    if (v === null) throw new FactUnavailable(name);
    return v;
  }

  /** The file name of a record id (from the log, or the id itself for hand-made facts). */
  fileName(id: bigint): string {
    return this.source ? this.source.fileName(id) : id.toString();
  }

  get notes(): readonly string[] {
    return this.source ? this.source.notes : [];
  }
}
