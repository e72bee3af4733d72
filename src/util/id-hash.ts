/**
 * An open-addressing set of 64-bit ids, each given as its two 32-bit halves: the tables that group or look up Darshan
 * record ids without BigInt arithmetic or a bigint `Map`. Sized for `n` ids (at most half full); slots are numbered
 * 0 … `size` − 1, so callers keep per-id values in arrays indexed by slot.
 */
export class IdSlots {
  readonly lo: Uint32Array;
  readonly hi: Uint32Array;
  readonly used: Uint8Array;
  /** Ids added. */
  count = 0;
  private readonly mask: number;

  constructor(n: number) {
    let cap = 16;
    while (cap < n * 2) cap <<= 1;
    this.mask = cap - 1;
    this.lo = new Uint32Array(cap);
    this.hi = new Uint32Array(cap);
    this.used = new Uint8Array(cap);
  }

  get size(): number {
    return this.used.length;
  }

  /** The slot holding the id, or the free slot where it would go (`used[slot]` says which). */
  find(lo: number, hi: number): number {
    const { used, mask } = this;
    let h = (Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> 7) & mask;
    while (used[h] && (this.lo[h] !== lo || this.hi[h] !== hi)) h = (h + 1) & mask;
    return h;
  }

  /** The id's slot, taking a free one if it is new. */
  add(lo: number, hi: number): number {
    const h = this.find(lo, hi);
    if (!this.used[h]) {
      this.used[h] = 1;
      this.lo[h] = lo;
      this.hi[h] = hi;
      this.count++;
    }
    return h;
  }
}
