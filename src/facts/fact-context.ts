import { CounterUnavailable, type AbsentCounters, type FactSource } from './source.js';
import type { FactDefinition } from './define-fact.js';
import type { FactName, FactValues } from './types.js';
import { FACTS } from './registry.js';

/**
 * Thrown when a required fact (or, for inputs derived from a trace, one field of it) does not exist for this log;
 * the check runner turns it into `notApplicable`, with `reason` when there is one.
 */
export class FactUnavailable extends Error {
  constructor(
    readonly fact: FactName,
    readonly reason?: string,
  ) {
    super(reason ?? `fact '${fact}' is not available for this log`);
    this.name = 'FactUnavailable';
  }
}

/** Why a counter keeps a fact (or a field of it) from existing: `no posix.totals.seqReads: POSIX_SEQ_READS cannot…`. */
function counterReason(what: string, counter: string, why: string): string {
  return `no ${what}: ${counter} cannot be derived (${why})`;
}

/** The fact value with `fields` withheld: reading one throws FactUnavailable with its reason. */
function withhold<T>(value: T, fact: FactName, fields: ReadonlyMap<string, string>): T {
  return new Proxy(value as object, {
    get(target, prop, receiver) {
      if (typeof prop === 'string') {
        const why = fields.get(prop);
        if (why !== undefined) throw new FactUnavailable(fact, why);
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  }) as T;
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
  /** Why a fact computed as unavailable is so (inputs derived from a trace). */
  private readonly reasons = new Map<FactName, string>();

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
      const def = FACTS[name] as unknown as FactDefinition<K>;
      const absent = this.source.log.absent;
      const v = absent ? this.computeDerived(def, this.source, absent) : def.compute(this.source, this);
      this.cache.set(name, v);
      this.modules.set(name, mine);
      return v;
    } finally {
      this.current = outer;
      for (const m of mine) outer?.add(m);
    }
  }

  /**
   * A fact over an input that lacks some counters: the counters its `fieldCounters` list are read as NaN and the
   * fields they feed withheld; any other absent counter it reads makes it unavailable.
   */
  private computeDerived<K extends FactName>(def: FactDefinition<K>, source: FactSource, absent: AbsentCounters): FactValues[K] | null {
    const withheld = new Map<string, string>();
    const tolerate: string[] = [];
    for (const [field, counters] of Object.entries(def.fieldCounters ?? {}) as [string, readonly string[]][]) {
      for (const c of counters) {
        const why = absent.reason(c);
        if (why === null) continue;
        tolerate.push(c);
        if (!withheld.has(field)) withheld.set(field, counterReason(`${def.name}.${field}`, c, why));
      }
    }
    // Each fact sees only its own tolerated counters, also when it is computed inside another fact.
    const outer = [...absent.tolerated];
    absent.tolerated.clear();
    for (const c of tolerate) absent.tolerated.add(c);
    try {
      const v = def.compute(source, this);
      return v !== null && withheld.size > 0 ? withhold(v, def.name, withheld) : v;
    } catch (err) {
      if (err instanceof CounterUnavailable) {
        this.reasons.set(def.name, counterReason(def.name, err.counter, err.reason));
        return null;
      }
      // A fact that needs an unavailable fact (or field) is unavailable for the same reason.
      if (err instanceof FactUnavailable && err.reason) {
        this.reasons.set(def.name, err.reason);
        return null;
      }
      throw err;
    } finally {
      absent.tolerated.clear();
      for (const c of outer) absent.tolerated.add(c);
    }
  }

  /**
   * Gives a fact its value, computed elsewhere from the same log (DXT facts summed while the region streams in
   * batches, `seedDxtFacts`), with the modules it was computed from; a fact already computed keeps its value.
   */
  seed<K extends FactName>(name: K, value: FactValues[K] | null, modules: Iterable<string>): void {
    if (this.cache.has(name)) return;
    this.cache.set(name, value);
    this.modules.set(name, new Set(modules));
  }

  /** Why a fact is unavailable, when the input says (counters a trace cannot supply); null otherwise. */
  unavailableReason(name: FactName): string | null {
    return this.reasons.get(name) ?? null;
  }

  /** The Darshan modules a fact was computed from (empty for facts not computed, or given by hand). */
  modulesOf(name: FactName): ReadonlySet<string> {
    return this.modules.get(name) ?? new Set();
  }

  /** The fact's value; throws FactUnavailable when it does not exist for this log. */
  get<K extends FactName>(name: K): FactValues[K] {
    const v = this.tryGet(name);
    if (v === null) throw new FactUnavailable(name, this.reasons.get(name));
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
