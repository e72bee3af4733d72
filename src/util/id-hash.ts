/** Slots of a table for `n` entries: a power of 2, at least twice `n` (so that it is at most half full). */
function slotsFor(n: number): number {
  let cap = 16;
  while (cap < n * 2) cap <<= 1;
  return cap;
}

/** Where the probe for the pair (lo, hi) of 32-bit integers starts in a table of `mask + 1` slots (a power of 2). */
function home(lo: number, hi: number, mask: number): number {
  return (Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> 7) & mask;
}

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
    const cap = slotsFor(n);
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
    let h = home(lo, hi, mask);
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

/**
 * A map from pairs of 32-bit integers to non-negative integers, growing as entries are added: the cube's index of
 * (process, file) pairs and of (pair, window) cells. Unlike a `Map` keyed by `a * 2^k + b`, a key past 2^31 is not a
 * heap number, and the table lives in typed arrays outside the JavaScript heap.
 */
export class IntPairMap {
  private a: Int32Array;
  private b: Int32Array;
  /** value + 1 per slot; 0 = empty */
  private v: Int32Array;
  private mask: number;
  /** Entries. */
  size = 0;

  constructor(capacity = 1024) {
    const cap = slotsFor(capacity);
    this.mask = cap - 1;
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.v = new Int32Array(cap);
  }

  /** The value of (a, b), or -1. */
  get(a: number, b: number): number {
    const { mask, v } = this;
    let h = home(a, b, mask);
    for (;;) {
      const x = v[h];
      if (x === 0) return -1;
      if (this.a[h] === a && this.b[h] === b) return x - 1;
      h = (h + 1) & mask;
    }
  }

  /** Sets (a, b) to `value` (≥ 0). */
  set(a: number, b: number, value: number): void {
    if (2 * (this.size + 1) > this.v.length) this.grow();
    const { mask, v } = this;
    let h = home(a, b, mask);
    while (v[h] !== 0 && (this.a[h] !== a || this.b[h] !== b)) h = (h + 1) & mask;
    if (v[h] === 0) {
      this.size++;
      this.a[h] = a;
      this.b[h] = b;
    }
    v[h] = value + 1;
  }

  clear(): void {
    this.v.fill(0);
    this.size = 0;
  }

  private grow(): void {
    const { a, b, v } = this;
    const cap = v.length * 2;
    this.mask = cap - 1;
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.v = new Int32Array(cap);
    this.size = 0;
    for (let h = 0; h < v.length; h++) if (v[h] !== 0) this.set(a[h], b[h], v[h] - 1);
  }
}
