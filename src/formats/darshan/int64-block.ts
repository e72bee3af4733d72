/**
 * A column-major block of signed 64-bit integers held as doubles, exact where it matters: every value is a plain
 * number, and the rare value beyond ±2^53 (seen only in corrupt or garbage fields) is also kept exactly as a bigint
 * on the side, so printing stays byte-exact while analysis reads fast Float64Array columns.
 */
export class Int64Block {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
  private overflow: Map<number, bigint> | null = null;

  constructor(rows: number, cols: number, data?: Float64Array) {
    this.rows = rows;
    this.cols = cols;
    this.data = data ?? new Float64Array(rows * cols);
  }

  /** The column as a live typed-array view (no copy). */
  col(c: number): Float64Array {
    return this.data.subarray(c * this.rows, (c + 1) * this.rows);
  }

  get(c: number, r: number): number {
    return this.data[c * this.rows + r];
  }

  /** Sets a value from its two 32-bit halves (hi signed, lo unsigned). */
  setHiLo(c: number, r: number, hi: number, lo: number): void {
    const i = c * this.rows + r;
    this.data[i] = hi * 4294967296 + lo;
    if (hi > 2097151 || hi < -2097152) (this.overflow ??= new Map()).set(i, (BigInt(hi) << 32n) | BigInt(lo));
  }

  setExact(c: number, r: number, v: bigint): void {
    const i = c * this.rows + r;
    this.data[i] = Number(v);
    if (v > 9007199254740991n || v < -9007199254740991n) (this.overflow ??= new Map()).set(i, v);
    else this.overflow?.delete(i);
  }

  exact(c: number, r: number): bigint {
    const i = c * this.rows + r;
    return this.overflow?.get(i) ?? BigInt(this.data[i]);
  }

  /** True when the stored double is the exact value (no side-table entry). */
  isExact(c: number, r: number): boolean {
    return this.overflow === null || !this.overflow.has(c * this.rows + r);
  }

  /** The value for JSON: a number when exact, else its exact decimal text. */
  json(c: number, r: number): number | string {
    return this.isExact(c, r) ? this.data[c * this.rows + r] : this.text(c, r);
  }

  /** Signed decimal text, exact. */
  text(c: number, r: number): string {
    const i = c * this.rows + r;
    if (this.overflow !== null) {
      const b = this.overflow.get(i);
      if (b !== undefined) return b.toString();
    }
    return String(this.data[i]);
  }

  /** Unsigned decimal text of the same 64 bits, exact. */
  unsignedText(c: number, r: number): string {
    const v = this.exact(c, r);
    return (v < 0n ? v + (1n << 64n) : v).toString();
  }

  /** True when some value needed the exact side table. */
  get hasOverflow(): boolean {
    return this.overflow !== null && this.overflow.size > 0;
  }

  /** Copies column `src` of `from` (same row count) into column `dst` of this block, overflow included. */
  copyColumn(dst: number, from: Int64Block, src: number): void {
    const d = dst * this.rows;
    const s = src * from.rows;
    this.data.set(from.data.subarray(s, s + from.rows), d);
    if (from.overflow) {
      for (let r = 0; r < this.rows; r++) {
        const b = from.overflow.get(s + r);
        if (b !== undefined) (this.overflow ??= new Map()).set(d + r, b);
      }
    }
  }

  fillColumn(c: number, v: number): void {
    this.data.fill(v, c * this.rows, (c + 1) * this.rows);
  }
}
