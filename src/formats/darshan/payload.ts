import type { Int64Block } from './int64-block.js';

/**
 * Typed access to one decompressed region in the log's byte order. Little-endian payloads are read through aligned
 * typed-array views (the fast path); big-endian ones through a DataView.
 */
export class Payload {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly little: boolean;
  readonly length: number;
  /** Aligned views, present for little-endian payloads. */
  readonly u32: Uint32Array | null;
  readonly i32: Int32Array | null;
  readonly f64: Float64Array | null;

  constructor(buf: Uint8Array, little: boolean) {
    let bytes = buf;
    if (little && bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(buf); // copy to an aligned buffer
    this.bytes = bytes;
    this.little = little;
    this.length = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (little) {
      const words = bytes.length >>> 3;
      this.u32 = new Uint32Array(bytes.buffer, bytes.byteOffset, words * 2);
      this.i32 = new Int32Array(bytes.buffer, bytes.byteOffset, words * 2);
      this.f64 = new Float64Array(bytes.buffer, bytes.byteOffset, words);
    } else {
      this.u32 = this.i32 = this.f64 = null;
    }
  }

  /** Reads the i64 at byte `off` into block[c][r], exactly. */
  i64Into(block: Int64Block, c: number, r: number, off: number): void {
    if (this.little && (off & 7) === 0) {
      const w = off >>> 2;
      block.setHiLo(c, r, this.i32![w + 1], this.u32![w]);
    } else if (this.little) {
      block.setHiLo(c, r, this.view.getInt32(off + 4, true), this.view.getUint32(off, true));
    } else {
      block.setHiLo(c, r, this.view.getInt32(off, false), this.view.getUint32(off + 4, false));
    }
  }

  /** Reads the i64 at `off` as a number (exact only within ±2^53; for counts and sizes that are validated). */
  i64(off: number): number {
    if (this.little && (off & 7) === 0) {
      const w = off >>> 2;
      return this.i32![w + 1] * 4294967296 + this.u32![w];
    }
    return this.little
      ? this.view.getInt32(off + 4, true) * 4294967296 + this.view.getUint32(off, true)
      : this.view.getInt32(off, false) * 4294967296 + this.view.getUint32(off + 4, false);
  }

  i64Exact(off: number): bigint {
    return this.view.getBigInt64(off, this.little);
  }

  u64(off: number): bigint {
    return this.view.getBigUint64(off, this.little);
  }

  f64At(off: number): number {
    if (this.little && (off & 7) === 0) return this.f64![off >>> 3];
    return this.view.getFloat64(off, this.little);
  }

  /** The 8 bytes at `off` read little-endian whatever the log's order (darshan-util's unswapped fields). */
  f64LE(off: number): number {
    return this.view.getFloat64(off, true);
  }
  u64LE(off: number): bigint {
    return this.view.getBigUint64(off, true);
  }
  i64LE(off: number): bigint {
    return this.view.getBigInt64(off, true);
  }
}
