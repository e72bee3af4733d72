// AssemblyScript: the DFTracer scanner's fast path (`DfScanner.tryShape` in src/trace/readers/dftracer-scan.ts), compiled
// to WebAssembly by scripts/wasm.mjs. It reads a line against the shape of an earlier line of the same kind: the two
// lines are compared sixteen bytes at a time, and a member whose value differs is read (a string or a number, with
// the same rules as the JavaScript scanner) and listed for JavaScript to assign. The layout of the memory is fixed
// (the constants below, which dftracer-scan.ts reads through `layout()`); the memory never grows.

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
/** Per shape: start i32[SEGS], keyLen i32[SEGS], key u8[SEGS], flags u8[SEGS], then off, len, n (i32). */
const TABLES: usize = COPIES + SHAPES * MAX_LINE;
const T_START: usize = 0;
const T_KEYLEN: usize = SEGS * 4;
const T_KEY: usize = SEGS * 8;
const T_FLAGS: usize = SEGS * 9;
const T_META: usize = SEGS * 10;
const T_SIZE: usize = 1024;
/** The member starts of the line being read. */
const NEXT: usize = TABLES + SHAPES * T_SIZE;
/** The members that differ: segment, kind, high, start, end (i32 each), value (f64). */
const CH_SEG: usize = NEXT + SEGS * 4;
const CH_KIND: usize = CH_SEG + SEGS * 4;
const CH_HIGH: usize = CH_KIND + SEGS * 4;
const CH_START: usize = CH_HIGH + SEGS * 4;
const CH_END: usize = CH_START + SEGS * 4;
const CH_NUM: usize = CH_END + SEGS * 4;
const END: usize = CH_NUM + SEGS * 8;

/**
 * The layout, for JavaScript to read (dftracer-scan.ts asks for every entry once): 0 RING, 1 CHUNK, 2 ring buffers,
 * 3 SCRATCH, 4 MAX_LINE, 5 TABLES, 6 T_SIZE, 7 T_KEYLEN, 8 T_KEY, 9 T_FLAGS, 10 T_META, 11 SEGS, 12 CH_SEG,
 * 13 CH_KIND, 14 CH_HIGH, 15 CH_START, 16 CH_END, 17 CH_NUM, 18 END, 19 SHAPES.
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

// @ts-ignore: decorator
@inline function at(i: i32): u32 {
  return <u32>load<u8>(<usize>i);
}

// @ts-ignore: decorator
@inline function afterWs(i: i32, end: i32): i32 {
  while (i < end) {
    const c = at(i);
    if (c == 32 || c == 9 || c == 13 || c == 10) i++;
    else break;
  }
  return i;
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
  if (c == 48) {
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

/** The first index k < lim where the bytes at a + k and b + k differ, or lim. */
// @ts-ignore: decorator
@inline function firstDiff(a: usize, b: usize, lim: i32): i32 {
  let k: i32 = 0;
  while (k + 16 <= lim) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(a + <usize>k), v128.load(b + <usize>k)));
    if (m != 0xffff) return k + <i32>ctz(~m);
    k += 16;
  }
  while (k < lim && load<u8>(a + <usize>k) == load<u8>(b + <usize>k)) k++;
  return k;
}

/** Where shape `sh`'s table starts. */
// @ts-ignore: decorator
@inline function table(sh: i32): usize {
  return TABLES + <usize>sh * T_SIZE;
}

/**
 * Reads the line at [s, e) against shape `sh`. Returns the number of members whose values differ (listed in CH_*),
 * having made the line the shape's line (its member starts, and a copy of it when it lies in SCRATCH), or -1 when
 * the line has another shape (nothing changed).
 */
export function fit(sh: i32, s: i32, e: i32): i32 {
  const t = table(sh);
  const po = load<i32>(t + T_META);
  const prevLen = load<i32>(t + T_META + 4);
  const n = load<i32>(t + T_META + 8);
  let changes = 0;
  let j = 0; // the first member not known equal yet
  let i = s; // where the line and the shape's line are compared from…
  let a = 0; // …and the same place in the shape's line
  for (;;) {
    const lim = min(prevLen - a, e - i);
    const k = firstDiff(<usize>i, <usize>(po + a), lim);
    const shift = i - a - s; // shape-line offset + shift = offset in this line
    if (k == lim) {
      // equal to the end of one of the two lines: the same line only if both end here
      if (prevLen - a != e - i) return -1;
      for (; j < n; j++) store<i32>(NEXT + (<usize>j << 2), load<i32>(t + T_START + (<usize>j << 2)) + shift);
      break;
    }
    const m = a + k;
    // members that end before the first difference are unchanged
    while (j + 1 < n && load<i32>(t + T_START + (<usize>(j + 1) << 2)) <= m) {
      store<i32>(NEXT + (<usize>j << 2), load<i32>(t + T_START + (<usize>j << 2)) + shift);
      j++;
    }
    const st = load<i32>(t + T_START + (<usize>j << 2));
    const kl = load<i32>(t + T_KEYLEN + (<usize>j << 2));
    const fl = <i32>load<u8>(t + T_FLAGS + <usize>j);
    // a difference before the first key, in a key, or in the `args` member itself: another shape
    if (m < st + kl || (fl & 2) != 0) return -1;
    store<i32>(NEXT + (<usize>j << 2), st + shift);
    pos = st + shift + s + kl;
    if (!readScalar(e)) return -1;
    if (load<u8>(t + T_KEY + <usize>j) != 0) {
      const c = <usize>changes << 2;
      store<i32>(CH_SEG + c, j);
      store<i32>(CH_KIND + c, tokKind);
      store<i32>(CH_HIGH + c, tokHigh);
      store<i32>(CH_START + c, tokStart);
      store<i32>(CH_END + c, tokEnd);
      store<f64>(CH_NUM + (<usize>changes << 3), tokNum);
      changes++;
    }
    // separators up to the next key, which must be at the level the shape has there
    const inArgs = (fl & 1) != 0;
    i = afterWs(pos, e);
    if (i >= e) return -1;
    let c = at(i++);
    let level = inArgs;
    if (c == 125 && inArgs) {
      i = afterWs(i, e);
      if (i >= e) return -1;
      c = at(i++);
      level = false;
    }
    if (c == 125) {
      // the end of the event: optional whitespace, one optional comma, the end of the line
      i = afterWs(i, e);
      if (i < e && at(i) == 44) i++;
      if (i != e || j != n - 1) return -1;
      break;
    }
    if (c != 44) return -1;
    i = afterWs(i, e);
    j++;
    if (j == n || i >= e || at(i) != 34 || ((load<u8>(t + T_FLAGS + <usize>j) & 1) != 0) != level) return -1;
    a = load<i32>(t + T_START + (<usize>j << 2));
  }
  // the line has the shape: its member starts and its bytes become the shape's
  memory.copy(t + T_START, NEXT, <usize>n << 2);
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
