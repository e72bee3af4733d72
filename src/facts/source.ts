import type { DecodeOutcome, JobRecord, ModuleTable } from '../formats/darshan/index.js';
import { FixedTable } from '../formats/darshan/index.js';
import { nameText } from '../formats/darshan/names.js';
import type { TimeModel } from './time-model.js';

/**
 * What facts read: Darshan-style module tables, record names and the job record. A `DarshanLog` is one; a counter
 * set derived from a trace's events (`facts/counters/`) is another. Only these members are used, so facts run
 * unchanged on both.
 */
export interface CounterInput {
  readonly names: {
    readonly size: number;
    get(id: bigint): string | null;
    /** `get` of every id of a column. */
    getAll(ids: BigUint64Array): (string | null)[];
    getAsDarshanUtil(id: bigint): string | null;
  };
  readonly job: Pick<JobRecord, 'uid' | 'startTimeSec' | 'startTimeNsec' | 'endTimeSec' | 'endTimeNsec' | 'nprocs' | 'jobid' | 'metadata' | 'exe' | 'runTimeSeconds'>;
  readonly header: { readonly versionString: string };
  /** How the input's regions are compressed (`zlib`, `bzip2`, `none`). */
  readonly compressionName: string;
  /** Module slots; the ones with data have `region.len > 0`. */
  slots(): readonly { readonly id: number; readonly name: string | null; readonly region: { readonly len: number }; readonly partial: boolean }[];
  has(name: string): boolean;
  /** The mount a file lives on (its file-system type), when the input records mounts. */
  mountOf(name: string | null): { readonly fsType: string; readonly path?: string } | null;
  decode<T extends ModuleTable = ModuleTable>(name: string): DecodeOutcome<T> | null;
  /** `decode(name)?.error`, without decoding a region again that was read in batches to its end (Darshan logs). */
  decodeError?(name: string): string | null;
  table<T extends ModuleTable = ModuleTable>(name: string): T | null;
  /** Counters the input cannot supply (derived inputs only; a Darshan log has every counter it has a table for). */
  readonly absent?: AbsentCounters;
  /** The time model of an input derived from a trace (built from its calls); Darshan logs leave it to the counters. */
  readonly timeModel?: TimeModel;
}

/**
 * The counters of a derived input that could not be derived, with the reason for each. Absent counters are not
 * zero: reading one makes the fact that reads it unavailable, unless the fact declares which of its fields the
 * counter feeds (`fieldCounters`), in which case only those fields are unavailable.
 */
export interface AbsentCounters {
  /** Why `counter` is absent, or null when it is present. */
  reason(counter: string): string | null;
  /**
   * Counters a fact may read while it is computed (their columns read as NaN): the fields they feed are then
   * withheld from the fact's readers. Maintained by the fact context around each computation.
   */
  readonly tolerated: Set<string>;
}

/** Thrown when a fact reads a counter its input does not have; the fact is then unavailable, with this reason. */
export class CounterUnavailable extends Error {
  constructor(
    readonly module: string,
    readonly counter: string,
    readonly reason: string,
  ) {
    super(`${counter} is not available: ${reason}`);
    this.name = 'CounterUnavailable';
  }
}

/**
 * What facts are computed from: one opened Darshan log, or counters derived from a trace. Module tables are decoded once (the reader caches them);
 * a damaged region yields the records read before the damage, and a note says so.
 */
export class FactSource {
  readonly notes: string[] = [];
  private readonly noted = new Set<string>();

  /** Called with each module a fact reads (the fact context records which modules each fact rests on). */
  onRead: ((module: string) => void) | null = null;

  constructor(readonly log: CounterInput) {}

  /** A fixed-record module table, or null when the input has no records for it. */
  fixed(name: string): FixedTable | null {
    this.onRead?.(name);
    const o = this.log.decode(name);
    if (!o) return null;
    if (o.error && !this.noted.has(name)) {
      this.noted.add(name);
      this.notes.push(`${name} module is damaged (${o.error}); the ${o.table.length} records read before the damage were analysed`);
    }
    return o.table instanceof FixedTable ? o.table : null;
  }

  /** Any module's table (DXT, LUSTRE, HEATMAP …), or null; throws when the region is damaged. */
  table<T extends ModuleTable = ModuleTable>(name: string): T | null {
    this.onRead?.(name);
    return this.log.table<T>(name);
  }

  /** Display name of a record id: the log's name (UTF-8 decoded), or the id in decimal when the log has none. */
  fileName(id: bigint): string {
    const raw = this.log.names.get(id) ?? this.log.names.getAsDarshanUtil(id);
    if (raw === null) return id.toString();
    return nameText(raw);
  }
}
