import type { DarshanLog, ModuleTable } from '../formats/darshan/index.js';
import { FixedTable } from '../formats/darshan/index.js';

/**
 * What facts are computed from: one opened Darshan log. Module tables are decoded once (the reader caches them);
 * a damaged region yields the records read before the damage, and a note says so.
 */
export class FactSource {
  readonly notes: string[] = [];
  private readonly noted = new Set<string>();

  /** Called with each module a fact reads (the fact context records which modules each fact rests on). */
  onRead: ((module: string) => void) | null = null;

  constructor(readonly log: DarshanLog) {}

  /** A fixed-record module table, or null when the log has no records for it. */
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
    // Names are stored as raw bytes (latin1 strings); most are UTF-8.
    return /[\u0080-\u00ff]/.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
  }
}
