import { IdSlots } from '../../util/id-hash.js';
import { DarshanFormatError } from './errors.js';

/**
 * A stored name as text to show: names are stored as their bytes (latin1 strings here, one char per byte) and are
 * UTF-8 on every system Darshan runs on, so bytes above 0x7f are decoded as UTF-8 (`donnÃ©es` → `données`; bytes
 * that are not UTF-8 become U+FFFD).
 */
export function nameText(raw: string): string {
  return /[\u0080-\u00ff]/.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
}

/**
 * Record id → file name. Names are raw text (latin1, one char per byte), as stored.
 * `get` is the intended mapping (a later non-empty name replaces an empty one). `getAsDarshanUtil` reproduces
 * darshan-util's lookup, which loses such a replaced id when the new name is longer than 15 bytes (a
 * use-after-free whose glibc behaviour is fixed); the parse printer uses it to match darshan-parser exactly.
 */
export class NameTable {
  private readonly names = new Map<bigint, string>();
  private readonly lost = new Set<bigint>();
  /** Ids whose darshan-util entry was lost, then re-added by a later occurrence. */
  private readonly readded = new Map<bigint, string>();

  get size(): number {
    return this.names.size;
  }

  get(id: bigint): string | null {
    return this.names.get(id) ?? null;
  }

  getAsDarshanUtil(id: bigint): string | null {
    if (this.lost.has(id)) return this.readded.get(id) ?? null;
    return this.names.get(id) ?? null;
  }

  entries(): IterableIterator<[bigint, string]> {
    return this.names.entries();
  }

  /**
   * `get` of every id of a column, through an open-addressing table on the ids' 32-bit halves (built on first use):
   * a `Map` lookup by bigint costs ~150 ns, and a report on a log of 100,000 files asks for every one several times.
   */
  getAll(ids: BigUint64Array): (string | null)[] {
    const t = (this.index ??= this.buildIndex());
    const u = new Uint32Array(ids.buffer, ids.byteOffset, ids.length * 2);
    const out = new Array<string | null>(ids.length);
    for (let r = 0; r < ids.length; r++) {
      const h = t.slots.find(u[2 * r], u[2 * r + 1]);
      out[r] = t.slots.used[h] ? t.value[h] : null;
    }
    return out;
  }

  private index: { slots: IdSlots; value: string[] } | null = null;

  private buildIndex(): { slots: IdSlots; value: string[] } {
    const slots = new IdSlots(this.names.size);
    const value = new Array<string>(slots.size);
    // ids are split through a 64-bit cell and its two 32-bit halves (the same view getAll reads columns through)
    const cell = new BigUint64Array(1);
    const half = new Uint32Array(cell.buffer);
    // forEach, not for…of: no [id, name] pair is allocated per name
    this.names.forEach((name, id) => {
      cell[0] = id;
      value[slots.add(half[0], half[1])] = name;
    });
    return { slots, value };
  }

  /** Adds one occurrence, applying the duplicate rules of format 3.10+ (`legacy`: 3.00, first one wins). */
  add(id: bigint, name: string, legacy: boolean): void {
    this.index = null;
    const cur = this.names.get(id);
    if (cur === undefined) {
      this.names.set(id, name);
      return;
    }
    if (legacy) return;
    if (this.lost.has(id)) {
      if (!this.readded.has(id)) this.readded.set(id, name);
      else if (this.readded.get(id) === '' && name !== '' && name.length <= 15) this.readded.set(id, name);
      return;
    }
    if (cur === '' && name !== '') {
      this.names.set(id, name);
      if (name.length > 15) this.lost.add(id);
    }
  }
}

/** Decodes the name-record region payload. */
export function parseNames(payload: Uint8Array, little: boolean, legacy: boolean): NameTable {
  const table = new NameTable();
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const text = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  let off = 0;
  if (legacy) {
    // 3.00: u64 id, u32 length, then the name without a terminator.
    while (payload.length - off >= 13) {
      const id = dv.getBigUint64(off, little);
      const len = dv.getUint32(off + 8, little);
      if (len > payload.length - off - 12) break;
      table.add(id, text.toString('latin1', off + 12, off + 12 + len), true);
      off += 12 + len;
    }
  } else {
    // 3.10+: u64 id, then a NUL-terminated name.
    while (payload.length - off >= 9) {
      const id = dv.getBigUint64(off, little);
      const end = payload.indexOf(0, off + 8);
      if (end < 0) break;
      table.add(id, text.toString('latin1', off + 8, end), false);
      off = end + 1;
    }
  }
  if (off !== payload.length) throw new DarshanFormatError(`corrupt name record region (${payload.length - off} trailing bytes)`);
  return table;
}
