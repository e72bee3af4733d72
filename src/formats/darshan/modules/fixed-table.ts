import type { Int64Block } from '../int64-block.js';
import type { ModuleTable } from '../module-types.js';
import type { Payload } from '../payload.js';

/**
 * Where a table's counters still sit in the decompressed region: current-version, little-endian records are not
 * copied into columns until a column is asked for, and printers read them straight from the payload.
 */
export interface RawRecords {
  readonly p: Payload;
  /** Byte size of one record. */
  readonly stride: number;
  /** Offsets of the int and float counters inside a record. */
  readonly intOff: number;
  readonly floatOff: number;
}

/** Records of a fixed-size counter module, columnar: one typed-array column per counter, filled on first use. */
export class FixedTable<I extends string = string, F extends string = string> implements ModuleTable {
  readonly kind = 'fixed' as const;
  private readonly intIndex: Map<string, number>;
  private readonly floatIndex: Map<string, number>;
  private readonly _ints: Int64Block;
  private readonly _floats: Float64Array;
  /** Per column: 1 once loaded from `raw` (null: everything loaded). */
  private intLoaded: Uint8Array | null;
  private floatLoaded: Uint8Array | null;

  constructor(
    readonly module: string,
    readonly moduleId: number,
    readonly version: number,
    readonly length: number,
    readonly ids: BigUint64Array,
    readonly ranks: Int64Block,
    readonly intNames: readonly I[],
    readonly floatNames: readonly F[],
    ints: Int64Block,
    /** Column-major doubles: counter f of row r at `f * length + r`. */
    floats: Float64Array,
    readonly fileRecIds: BigUint64Array | null,
    /** Raw trailing bytes per record (`tailBytes` each), little-endian order already applied where it matters. */
    readonly tail: Uint8Array | null,
    /** When given, `ints` and `floats` are empty and filled from these records on demand. */
    readonly raw: RawRecords | null = null,
  ) {
    this.intIndex = new Map(intNames.map((n, i) => [n, i]));
    this.floatIndex = new Map(floatNames.map((n, i) => [n, i]));
    this._ints = ints;
    this._floats = floats;
    this.intLoaded = raw ? new Uint8Array(intNames.length) : null;
    this.floatLoaded = raw ? new Uint8Array(floatNames.length) : null;
  }

  /**
   * Every int counter, column-major (loads all columns). The columns not loaded yet are filled in one pass over the
   * records, each record's counters in turn: a column at a time would read every record's cache lines once per
   * column.
   */
  get ints(): Int64Block {
    const loaded = this.intLoaded;
    if (loaded) {
      const { p, stride, intOff } = this.raw!;
      const i32 = p.i32!;
      const u32 = p.u32!;
      const n = this.length;
      const ni = this.intNames.length;
      const step = stride >>> 2;
      for (let r = 0, base = intOff >>> 2; r < n; r++, base += step) {
        for (let c = 0, w = base; c < ni; c++, w += 2) if (!loaded[c]) this.storeInt(c, r, i32[w + 1], u32[w]);
      }
      this.intLoaded = null;
    }
    return this._ints;
  }

  /** Every float counter, column-major: counter f of row r at `f * length + r` (loads all columns). */
  get floats(): Float64Array {
    if (this.floatLoaded) {
      for (let c = 0; c < this.floatNames.length; c++) this.loadFloat(c);
      this.floatLoaded = null;
    }
    return this._floats;
  }

  private loadInt(c: number): void {
    if (!this.intLoaded || this.intLoaded[c]) return;
    const { p, stride, intOff } = this.raw!;
    const i32 = p.i32!;
    const u32 = p.u32!;
    const n = this.length;
    const step = stride >>> 2;
    let w = (intOff + 8 * c) >>> 2;
    for (let r = 0; r < n; r++, w += step) this.storeInt(c, r, i32[w + 1], u32[w]);
    this.intLoaded[c] = 1;
  }

  /** Counter c of row r from its two 32-bit halves: a double when exact, else kept exactly by the block. */
  private storeInt(c: number, r: number, hi: number, lo: number): void {
    if (hi > 2097151 || hi < -2097152) this._ints.setHiLo(c, r, hi, lo);
    else this._ints.data[c * this.length + r] = hi * 4294967296 + lo;
  }

  private loadFloat(c: number): void {
    if (!this.floatLoaded || this.floatLoaded[c]) return;
    const { p, stride, floatOff } = this.raw!;
    const f64 = p.f64!;
    const n = this.length;
    const step = stride >>> 3;
    let w = (floatOff + 8 * c) >>> 3;
    for (let r = 0; r < n; r++, w += step) this._floats[c * n + r] = f64[w];
    this.floatLoaded[c] = 1;
  }

  /** The column of an int counter, as doubles (exact within ±2^53). */
  int(name: I): Float64Array {
    const c = this.intIndex.get(name);
    if (c === undefined) throw new Error(`${this.module} has no counter ${name}`);
    this.loadInt(c);
    return this._ints.col(c);
  }

  /** The column of a float counter. */
  float(name: F): Float64Array {
    const c = this.floatIndex.get(name);
    if (c === undefined) throw new Error(`${this.module} has no counter ${name}`);
    this.loadFloat(c);
    return this._floats.subarray(c * this.length, (c + 1) * this.length);
  }

  intCol(name: string): number {
    return this.intIndex.get(name) ?? -1;
  }
  floatCol(name: string): number {
    return this.floatIndex.get(name) ?? -1;
  }
}
