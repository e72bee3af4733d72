// AssemblyScript: the DFTracer scanner's fast path (src/trace/readers/dftracer-scan.ts), compiled to WebAssembly by
// scripts/wasm.mjs. It reads a line against the shape of an earlier line of the same kind: the two lines are compared
// sixteen bytes at a time, and a member whose value differs is read (a string or a number, with the same rules as the
// JavaScript scanner) and listed for JavaScript to assign. `match` reads one line against the recent shapes (the one
// that followed the last line's shape first, then the others, most recently used first); `batch` splits a run of
// lines and matches each, listing the lines that fit until the first line that needs JavaScript. The layout of the
// memory is fixed (the constants below, which dftracer-scan.ts reads through `layout()`); the memory never grows.

/** Where the layout starts (below it: what the compiler places in memory). */
const BASE: usize = 65536;
/** Three buffers the line reader fills in turn (1 MiB each). */
const RING: usize = BASE;
const CHUNK: usize = 1 << 20;
const RINGS: usize = 3;
/** A line from elsewhere, copied here to be read against the shapes. */
const SCRATCH: usize = RING + RINGS * CHUNK;
/** The longest line a shape keeps; each shape has a copy slot of this size. */
const MAX_LINE: usize = 64 * 1024;
const COPIES: usize = SCRATCH + MAX_LINE;
const SHAPES: usize = 4;
/** Members per line a shape holds at most. */
const SEGS: usize = 64;
/**
 * Per shape, per member (relative to the line): where it starts (its key's quote) i32[SEGS], the bytes from there to
 * its value i32[SEGS], its field u8[SEGS], flags u8[SEGS] (bit 0: inside `args`, bit 1: the `args` member itself),
 * where its value ends i32[SEGS]; then the line's offset, length and member count (i32).
 */
const TABLES: usize = COPIES + SHAPES * MAX_LINE;
const T_START: usize = 0;
const T_KEYLEN: usize = SEGS * 4;
const T_KEY: usize = SEGS * 8;
const T_FLAGS: usize = SEGS * 9;
const T_VEND: usize = SEGS * 10;
const T_META: usize = SEGS * 14;
const T_SIZE: usize = 1024;
/**
 * How the line being read is shifted against the shape's line: from the value end of member SHIFT_FROM[k] - 1 on (up
 * to the next entry's), by SHIFT_BY[k] bytes (i32 each; a new entry after each value whose length differs).
 */
const SHIFT_FROM: usize = TABLES + SHAPES * T_SIZE;
const SHIFT_BY: usize = SHIFT_FROM + SEGS * 4;
/**
 * The members that differ: segment, kind, high, start, end (i32 each), value (f64); CH_CAP entries (the lines of one
 * batch share the list; `match` lists from entry 0).
 */
const CH_CAP: usize = 1024;
const CH_SEG: usize = SHIFT_BY + SEGS * 4;
const CH_KIND: usize = CH_SEG + CH_CAP * 4;
const CH_HIGH: usize = CH_KIND + CH_CAP * 4;
const CH_START: usize = CH_HIGH + CH_CAP * 4;
const CH_END: usize = CH_START + CH_CAP * 4;
const CH_NUM: usize = CH_END + CH_CAP * 4;
/** The lines a batch took that fit a shape: the shape, the changes listed for it, and the lines up to it. */
const OUT_SHAPE: usize = CH_NUM + CH_CAP * 8;
const OUT_CAP: usize = 512;
const OUT_CHANGES: usize = OUT_SHAPE + OUT_CAP * 4;
const OUT_LINES: usize = OUT_CHANGES + OUT_CAP * 4;
/**
 * The scanner's state, i32 each: the shapes most recently used first (SHAPES), the shape that followed each shape
 * last time (SHAPES, -1 for none), whether each may guide other lines (SHAPES), then the counters below.
 */
const STATE: usize = OUT_LINES + OUT_CAP * 4;
const S_MRU: usize = STATE;
const S_FOLLOW: usize = S_MRU + SHAPES * 4;
const S_OK: usize = S_FOLLOW + SHAPES * 4;
const S_MISSES: usize = S_OK + SHAPES * 4; // lines in a row that fitted no shape
const S_REUSED: usize = S_MISSES + 4; // lines read against a shape
const S_TRIES: usize = S_REUSED + 4; // comparisons of a line with a shape
const S_OUT: usize = S_TRIES + 4; // entries the last batch listed
const S_LINES: usize = S_OUT + 4; // lines the last batch took (empty ones included)
// where the line the last batch stopped at starts (trimmed) when it fitted no shape, else -1
const S_TRIED: usize = S_LINES + 4;
const S_CHANGES: usize = S_TRIED + 4; // the changes the last `match` listed
const END: usize = S_CHANGES + 4;
/** After this many lines in a row that fit no shape, only every this-many-th line is compared with the shapes. */
const MISS_RUN: i32 = 8;

/**
 * The layout, for JavaScript to read (dftracer-scan.ts asks for every entry once): 0 RING, 1 CHUNK, 2 ring buffers,
 * 3 SCRATCH, 4 MAX_LINE, 5 TABLES, 6 T_SIZE, 7 T_KEYLEN, 8 T_KEY, 9 T_FLAGS, 10 T_META, 11 SEGS, 12 CH_SEG,
 * 13 CH_KIND, 14 CH_HIGH, 15 CH_START, 16 CH_END, 17 CH_NUM, 18 END, 19 SHAPES, 20 CH_CAP, 21 OUT_SHAPE,
 * 22 OUT_CHANGES, 23 OUT_LINES, 24 OUT_CAP, 25 STATE, 26 MISS_RUN, 27 T_VEND.
 */
export function layout(i: i32): i32 {
  switch (i) {
    case 0: return <i32>RING;
    case 1: return <i32>CHUNK;
    case 2: return <i32>RINGS;
    case 3: return <i32>SCRATCH;
    case 4: return <i32>MAX_LINE;
    case 5: return <i32>TABLES;
    case 6: return <i32>T_SIZE;
    case 7: return <i32>T_KEYLEN;
    case 8: return <i32>T_KEY;
    case 9: return <i32>T_FLAGS;
    case 10: return <i32>T_META;
    case 11: return <i32>SEGS;
    case 12: return <i32>CH_SEG;
    case 13: return <i32>CH_KIND;
    case 14: return <i32>CH_HIGH;
    case 15: return <i32>CH_START;
    case 16: return <i32>CH_END;
    case 17: return <i32>CH_NUM;
    case 18: return <i32>END;
    case 19: return <i32>SHAPES;
    case 20: return <i32>CH_CAP;
    case 21: return <i32>OUT_SHAPE;
    case 22: return <i32>OUT_CHANGES;
    case 23: return <i32>OUT_LINES;
    case 24: return <i32>OUT_CAP;
    case 25: return <i32>STATE;
    case 26: return MISS_RUN;
    case 27: return <i32>T_VEND;
  }
  return -1;
}

// the token read last
let tokStart: i32 = 0;
let tokEnd: i32 = 0;
let tokKind: i32 = 0; // 1 string, 2 number (exact integer), 3 number (-0), 4 number JavaScript must convert
let tokHigh: i32 = 0;
let tokNum: f64 = 0;
let pos: i32 = 0;
/** Where `fitAt` lists its changes (entry index in the change list). */
let chBase: i32 = 0;

// @ts-ignore: decorator
@inline function at(i: i32): u32 {
  return <u32>load<u8>(<usize>i);
}

// @ts-ignore: decorator
@inline function readString(end: i32): bool {
  let i = pos + 1;
  let high = 0;
  for (; i < end; i++) {
    const c = at(i);
    if (c == 34) break;
    if (c == 92 || c < 32) return false;
    if (c >= 128) high = 1;
  }
  if (i >= end) return false;
  tokStart = pos + 1;
  tokEnd = i;
  tokHigh = high;
  tokKind = 1;
  pos = i + 1;
  return true;
}

/** 10^k for k = 0…8. */
const POW10 = memory.data<u64>([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000]);

/**
 * The number of decimal digits at `i` (before `end`) when there are at most 16, else 0. Reads 17 bytes from `i` on
 * whatever `end` is: the layout keeps lines far from the end of the memory.
 */
// @ts-ignore: decorator
@inline function digitRun(i: i32, end: i32): i32 {
  const d = i8x16.sub(v128.load(<usize>i), i8x16.splat(48));
  const m = i8x16.bitmask(i8x16.lt_u(d, i8x16.splat(10)));
  let n = <i32>ctz(~m);
  if (n > end - i) return end - i;
  if (n == 16 && i + 16 < end && at(i + 16) - 48 < 10) return 0;
  return n;
}

/** The value of eight decimal digits in `x` (the first in its lowest byte; ASCII digits or zero bytes). */
// @ts-ignore: decorator
@inline function eight(x: u64): u64 {
  x = ((x & 0x0f0f0f0f0f0f0f0f) * 2561) >> 8;
  x = ((x & 0x00ff00ff00ff00ff) * 6553601) >> 16;
  return ((x & 0x0000ffff0000ffff) * 42949672960001) >> 32;
}

// @ts-ignore: decorator
@inline function readNumber(end: i32): bool {
  let i = pos;
  const s = i;
  let neg = false;
  if (at(i) == 45) {
    neg = true;
    i++;
  }
  if (i >= end) return false;
  let c = at(i);
  let v: u64 = 0;
  let digits = 0;
  let n = 0;
  if (c >= 49 && c <= 57) n = digitRun(i, end);
  if (n != 0) {
    // up to 16 digits at once (eight bytes at a time); the bytes read past them are shifted out
    if (n <= 8) v = eight(load<u64>(<usize>i) << (<u64>(8 - n) << 3));
    else v = eight(load<u64>(<usize>i)) * load<u64>(POW10 + (<usize>(n - 8) << 3)) + eight(load<u64>(<usize>i + 8) << (<u64>(16 - n) << 3));
    digits = n;
    i += n;
  } else if (c == 48) {
    i++;
  } else if (c >= 49 && c <= 57) {
    while (i < end) {
      c = at(i);
      if (c < 48 || c > 57) break;
      v = v * 10 + <u64>(c - 48);
      digits++;
      i++;
    }
  } else return false;
  let simple = true;
  if (i < end && at(i) == 46) {
    simple = false;
    i++;
    const f = i;
    while (i < end && at(i) >= 48 && at(i) <= 57) i++;
    if (i == f) return false;
  }
  if (i < end && (at(i) == 101 || at(i) == 69)) {
    simple = false;
    i++;
    if (i < end && (at(i) == 43 || at(i) == 45)) i++;
    const f = i;
    while (i < end && at(i) >= 48 && at(i) <= 57) i++;
    if (i == f) return false;
  }
  tokStart = s;
  tokEnd = i;
  pos = i;
  // exact while the value is at most 2^53 - 1 (JSON.parse gives the same); 19 digits cannot overflow 64 bits
  if (simple && digits <= 19 && v <= 9007199254740991) {
    const d = <f64>v;
    tokNum = neg ? -d : d;
    tokKind = neg && v == 0 ? 3 : 2;
  } else {
    tokNum = 0;
    tokKind = 4;
  }
  return true;
}

// @ts-ignore: decorator
@inline function readScalar(end: i32): bool {
  const c = at(pos);
  if (c == 34) return readString(end);
  if (c == 45 || (c >= 48 && c <= 57)) return readNumber(end);
  return false;
}

/**
 * The first index k < lim where the bytes at a + k and b + k differ, or lim. The last sixteen bytes are compared
 * together too, reading up to 15 bytes past `lim` (the layout keeps lines far from the end of the memory).
 */
// @ts-ignore: decorator
@inline function firstDiff(a: usize, b: usize, lim: i32): i32 {
  let k: i32 = 0;
  while (k + 16 <= lim) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(a + <usize>k), v128.load(b + <usize>k)));
    if (m != 0xffff) return k + <i32>ctz(~m);
    k += 16;
  }
  if (k == lim) return k;
  // bytes from lim on count as equal
  const m = (i8x16.bitmask(i8x16.eq(v128.load(a + <usize>k), v128.load(b + <usize>k))) | (0xffff << (lim - k))) & 0xffff;
  return m != 0xffff ? k + <i32>ctz(~m) : lim;
}

/** Where shape `sh`'s table starts. */
// @ts-ignore: decorator
@inline function table(sh: i32): usize {
  return TABLES + <usize>sh * T_SIZE;
}

/**
 * Reads the line at [s, e) against shape `sh` (counted in S_TRIES). Returns the number of members whose values differ
 * (listed in CH_* from entry `chBase` on), having made the line the shape's line (its member starts and value ends,
 * and a copy of it when it lies in SCRATCH), or -1 when the line has another shape (nothing changed). The two lines
 * are compared up to a difference, which must lie in a member's value (or just after it, where a longer value goes
 * on); the value is read, and the comparison goes on from its end and the end of the shape's value: whatever follows
 * a value up to the next key must be the same bytes as in the shape's line (which the general scan checked when it
 * recorded the shape).
 */
function fitAt(sh: i32, s: i32, e: i32): i32 {
  store<i32>(S_TRIES, load<i32>(S_TRIES) + 1);
  const t = table(sh);
  const po = load<i32>(t + T_META);
  const prevLen = load<i32>(t + T_META + 4);
  const n = load<i32>(t + T_META + 8);
  let changes = 0;
  let j = 0; // the member the comparison is in
  let read = -1; // the member whose value was read last
  let i = s; // where the line and the shape's line are compared from…
  let a = 0; // …and the same place in the shape's line
  let shifts = 0; // entries in SHIFT_FROM / SHIFT_BY
  let last = 0; // the shift of the last entry (none: 0)
  for (;;) {
    const lim = min(prevLen - a, e - i);
    const k = firstDiff(<usize>i, <usize>(po + a), lim);
    const shift = i - a - s; // shape-line offset + shift = offset in this line, from here on
    if (shift != last) {
      store<i32>(SHIFT_FROM + (<usize>shifts << 2), j + 1);
      store<i32>(SHIFT_BY + (<usize>shifts << 2), shift);
      shifts++;
      last = shift;
    }
    // equal to the end of one of the two lines: the same line only if both end here
    if (k == lim) {
      if (prevLen - a != e - i) return -1;
      break;
    }
    const m = a + k;
    // the member the difference is in: from its key to the next member's key
    while (j + 1 < n && load<i32>(t + T_START + (<usize>(j + 1) << 2)) <= m) j++;
    const st = load<i32>(t + T_START + (<usize>j << 2));
    const kl = load<i32>(t + T_KEYLEN + (<usize>j << 2));
    const vend = load<i32>(t + T_VEND + (<usize>j << 2));
    // another shape: a difference before the first key, in a key, in the `args` member itself, after a value (not
    // where the value goes on), or again in the value just read (what follows it differs)
    if (m < st + kl || m > vend || j == read || (load<u8>(t + T_FLAGS + <usize>j) & 2) != 0) return -1;
    pos = st + shift + s + kl;
    if (!readScalar(e)) return -1;
    read = j;
    if (load<u8>(t + T_KEY + <usize>j) != 0) {
      const x = <usize>(chBase + changes);
      const c = x << 2;
      store<i32>(CH_SEG + c, j);
      store<i32>(CH_KIND + c, tokKind);
      store<i32>(CH_HIGH + c, tokHigh);
      store<i32>(CH_START + c, tokStart);
      store<i32>(CH_END + c, tokEnd);
      store<f64>(CH_NUM + (x << 3), tokNum);
      changes++;
    }
    i = pos;
    a = vend;
  }
  // the line has the shape: its member starts and value ends and its bytes become the shape's (a shift entry made at
  // member j applies to j's value end and to the members after j)
  for (let x = 0; x < shifts; x++) {
    const by = load<i32>(SHIFT_BY + (<usize>x << 2));
    if (by == 0) continue;
    const from = load<i32>(SHIFT_FROM + (<usize>x << 2));
    const isLast = x + 1 == shifts;
    // starts [from, to) and value ends [from - 1, to - 1), to the end for the last entry
    const to = isLast ? n : load<i32>(SHIFT_FROM + (<usize>(x + 1) << 2));
    for (let y = from; y < to; y++) {
      const at = t + T_START + (<usize>y << 2);
      store<i32>(at, load<i32>(at) + by);
    }
    const endsTo = isLast ? n : to - 1;
    for (let y = from - 1; y < endsTo; y++) {
      const at = t + T_VEND + (<usize>y << 2);
      store<i32>(at, load<i32>(at) + by);
    }
  }
  keep(sh, s, e);
  return changes;
}

/** Makes [s, e) shape `sh`'s line, copying it into the shape's own slot when it lies in SCRATCH. */
export function keep(sh: i32, s: i32, e: i32): void {
  const t = table(sh);
  let off = s;
  if (<usize>s >= SCRATCH && <usize>s < SCRATCH + MAX_LINE) {
    off = <i32>(COPIES + <usize>sh * MAX_LINE);
    memory.copy(<usize>off, <usize>s, <usize>(e - s));
  }
  store<i32>(t + T_META, off);
  store<i32>(t + T_META + 4, e - s);
}

/** The ring buffer [lo, hi) is about to be filled again: shapes whose line lies in it copy it into their own slot. */
export function release(lo: i32, hi: i32): void {
  for (let sh = 0; sh < <i32>SHAPES; sh++) {
    const t = table(sh);
    const off = load<i32>(t + T_META);
    const len = load<i32>(t + T_META + 4);
    if (off >= lo && off < hi) {
      const own = COPIES + <usize>sh * MAX_LINE;
      memory.copy(own, <usize>off, <usize>len);
      store<i32>(t + T_META, <i32>own);
    }
  }
}

// @ts-ignore: decorator
@inline function stateAt(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

/** A new scanner: no shapes yet, in slot order, nothing counted. */
export function reset(): void {
  for (let i = 0; i < <i32>SHAPES; i++) {
    store<i32>(S_MRU + (<usize>i << 2), i);
    store<i32>(S_FOLLOW + (<usize>i << 2), -1);
    store<i32>(S_OK + (<usize>i << 2), 0);
    store<i32>(table(i) + T_META + 8, 0);
  }
  store<i32>(S_MISSES, 0);
  store<i32>(S_REUSED, 0);
  store<i32>(S_TRIES, 0);
  store<i32>(S_OUT, 0);
  store<i32>(S_LINES, 0);
  store<i32>(S_TRIED, -1);
}

/** Shape `sh` is the shape of the line just read: it follows the last line's shape, and is now the most recent. */
export function use(sh: i32): void {
  store<i32>(S_FOLLOW + (<usize>stateAt(S_MRU, 0) << 2), sh);
  let i = 0;
  while (i < <i32>SHAPES - 1 && stateAt(S_MRU, i) != sh) i++;
  for (; i > 0; i--) store<i32>(S_MRU + (<usize>i << 2), stateAt(S_MRU, i - 1));
  store<i32>(S_MRU, sh);
}

/**
 * Reads [s, e) against the shapes that may guide (the one that followed the last line's shape first, then the
 * others, most recently used first): the shape it fits, made the most recent, with its changes listed from entry
 * `chBase` on and their number in S_CHANGES, the miss count reset and the line counted in S_REUSED; or -1, with
 * nothing changed (the caller counts the miss).
 */
function lookup(s: i32, e: i32): i32 {
  const guess = stateAt(S_FOLLOW, stateAt(S_MRU, 0));
  let sh = -1;
  let changes = -1;
  if (guess >= 0 && stateAt(S_OK, guess) != 0) {
    changes = fitAt(guess, s, e);
    if (changes >= 0) sh = guess;
  }
  for (let k = 0; k < <i32>SHAPES && sh < 0; k++) {
    const other = stateAt(S_MRU, k);
    if (other != guess && stateAt(S_OK, other) != 0) {
      changes = fitAt(other, s, e);
      if (changes >= 0) sh = other;
    }
  }
  if (sh < 0) return -1;
  store<i32>(S_CHANGES, changes);
  store<i32>(S_MISSES, 0);
  store<i32>(S_REUSED, load<i32>(S_REUSED) + 1);
  use(sh);
  return sh;
}

/** `lookup` for one line of JavaScript's (its changes listed from entry 0). */
export function match(s: i32, e: i32): i32 {
  chBase = 0;
  return lookup(s, e);
}

/** The first newline at or after `p` (before `end`), or `end`. */
// @ts-ignore: decorator
@inline function newline(p: i32, end: i32): i32 {
  const nl = i8x16.splat(10);
  let q = p;
  while (q + 16 <= end) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(<usize>q), nl));
    if (m != 0) return q + <i32>ctz(m);
    q += 16;
  }
  while (q < end && at(q) != 10) q++;
  return q;
}

// @ts-ignore: decorator
@inline function blank(c: u32): bool {
  return c == 32 || c == 9 || c == 13;
}

/**
 * Takes the lines of [p, end) (`end` just after a newline), as many as it can: a line that is empty once ASCII blanks
 * are trimmed is counted; a line that fits one of the recent shapes is listed (OUT_*: the shape, the changes it listed
 * and the lines since the last entry) with its changes in the change list. Stops at the first line that needs
 * JavaScript (longer than `maxLen` bytes, blank or not; longer than MAX_LINE once trimmed, not an object, or fitting
 * no shape: S_TRIED then says where it starts, trimmed, so that it is not compared with the shapes again), or when
 * the lists are full; returns where the line it stopped at starts (`end` when it took them all) and leaves the number
 * of lines it took in S_LINES.
 */
export function batch(p: i32, end: i32, maxLen: i32): i32 {
  let out = 0;
  let lines = 0;
  let since = 0; // empty lines since the last entry
  chBase = 0;
  store<i32>(S_TRIED, -1);
  while (p < end) {
    const q = newline(p, end);
    // a line past the limit stops the run even when it is blank: the line reader's error is JavaScript's
    if (q - p > maxLen) break;
    let s = p;
    let e = q;
    while (s < e && blank(at(s))) s++;
    while (e > s && blank(at(e - 1))) e--;
    if (s == e) {
      since++;
      lines++;
      p = q + 1;
      continue;
    }
    if (out == <i32>OUT_CAP || chBase + <i32>SEGS > <i32>CH_CAP) break;
    if (e - s > <i32>MAX_LINE || at(s) != 123) break;
    const misses = load<i32>(S_MISSES);
    if (misses >= MISS_RUN && misses % MISS_RUN != 0) break;
    const sh = lookup(s, e);
    if (sh < 0) {
      store<i32>(S_TRIED, s);
      break;
    }
    const changes = load<i32>(S_CHANGES);
    store<i32>(OUT_SHAPE + (<usize>out << 2), sh);
    store<i32>(OUT_CHANGES + (<usize>out << 2), changes);
    chBase += changes;
    store<i32>(OUT_LINES + (<usize>out << 2), since + 1);
    out++;
    lines++;
    since = 0;
    p = q + 1;
  }
  store<i32>(S_OUT, out);
  store<i32>(S_LINES, lines);
  return p;
}
