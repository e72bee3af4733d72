/**
 * A zlib stream decoder (RFC 1950 wrapping RFC 1951 deflate) in JavaScript, for logs made of many small streams.
 *
 * Node's `zlib.inflateSync` costs a few microseconds per call before inflating a byte (a zlib object, its native
 * handle, a stream, an output buffer), and a Darshan log holds one stream per rank and module: thousands of streams
 * of a few hundred bytes each in the logs of large jobs, where that overhead outweighs the inflating. This decoder
 * has none of it, and writes every stream straight onto the end of one growing buffer.
 *
 * It is a fast path only: it returns -1 for anything it does not accept (a damaged or truncated stream, a preset
 * dictionary, an incomplete Huffman code, a wrong checksum, output past the caller's limit), and the caller then
 * inflates that stream with Node's zlib, which decides and words the error. So whenever it succeeds, its output and
 * the bytes it consumed are zlib's; tests compare the two on random and damaged streams of every block type.
 */

/** Where decoded bytes go: `buf[0, len)` holds what was written so far; `buf` is replaced when it must grow. */
export interface InflateSink {
  buf: Buffer;
  len: number;
}

// Length and distance symbols (RFC 1951 3.2.5): base values and extra bits.
const LEN_BASE = Uint16Array.of(3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258);
const LEN_EXTRA = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0);
const DIST_BASE = Uint16Array.of(1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577);
const DIST_EXTRA = Uint8Array.of(0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13);
/** The order in which a dynamic block lists the code lengths of its code-length code. */
const CLEN_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/**
 * A canonical Huffman code as a table indexed by the next `bits` input bits (least significant first): each entry
 * is `symbol << 4 | code length`, 0 where no code starts with that bit pattern.
 */
interface Code {
  table: Uint16Array;
  bits: number;
}

const count = new Uint16Array(16);
const next = new Uint16Array(16);

/**
 * Builds the code whose symbol `s` has length `lengths[from + s]` (0: unused), or null where zlib would refuse it: an
 * over-subscribed code, or an incomplete one other than zlib's two allowed cases (no codes at all; a single code of
 * one bit, for literals/lengths and distances but not for the code-length code).
 */
function buildCode(lengths: Uint8Array, from: number, n: number, codeLengthCode: boolean): Code | null {
  count.fill(0);
  let max = 0;
  for (let s = 0; s < n; s++) {
    const l = lengths[from + s]!;
    count[l]!++;
    if (l > max) max = l;
  }
  let left = 1;
  for (let l = 1; l <= 15; l++) {
    left = (left << 1) - count[l]!;
    if (left < 0) return null;
  }
  if (left > 0 && max > 0 && (codeLengthCode || max !== 1)) return null;
  const bits = Math.max(1, max);
  const table = new Uint16Array(1 << bits);
  next[1] = 0;
  for (let l = 1; l < 15; l++) next[l + 1] = (next[l]! + count[l]!) << 1;
  for (let s = 0; s < n; s++) {
    const l = lengths[from + s]!;
    if (l === 0) continue;
    let code = next[l]!++;
    let rev = 0;
    for (let i = 0; i < l; i++) {
      rev = (rev << 1) | (code & 1);
      code >>>= 1;
    }
    const entry = (s << 4) | l;
    for (let i = rev; i < table.length; i += 1 << l) table[i] = entry;
  }
  return { table, bits };
}

function fixedCodes(): [Code, Code] {
  const l = new Uint8Array(288 + 32);
  l.fill(8, 0, 144);
  l.fill(9, 144, 256);
  l.fill(7, 256, 280);
  l.fill(8, 280, 288);
  l.fill(5, 288, 320);
  return [buildCode(l, 0, 288, false)!, buildCode(l, 288, 32, false)!];
}
let fixed: [Code, Code] | null = null;

const lengths = new Uint8Array(286 + 30);

/** Failure inside the decoder: the stream is handed to zlib. */
const FAIL = -1;

/**
 * Inflates the zlib stream that starts at `src[off]` onto the end of `sink`, and returns the offset just past it
 * (its Adler-32 checksum included), or -1 if this decoder does not accept it (see the module's doc) or its output
 * would take `sink.len` past `limit`. On -1, `sink.len` is as it was.
 */
export function inflateZlibTo(src: Uint8Array, off: number, sink: InflateSink, limit: number): number {
  const start = sink.len;
  const end = src.length;
  if (off + 2 > end) return FAIL;
  const cmf = src[off]!;
  const flg = src[off + 1]!;
  if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 || flg & 32) return FAIL;
  let pos = off + 2;
  let bitbuf = 0;
  let bitcnt = 0;
  let out = sink.buf;
  let o = start;

  /** Room for `n` more output bytes, or false past `limit`. */
  const room = (n: number): boolean => {
    if (o + n > limit) return false;
    if (o + n > out.length) {
      const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(o + n, out.length * 2, 1024)));
      grown.set(out.subarray(0, o));
      out = grown;
    }
    return true;
  };
  /** The next `n` bits (n ≤ 16), or -1 at the end of the input. */
  const take = (n: number): number => {
    while (bitcnt < n) {
      if (pos >= end) return FAIL;
      bitbuf |= src[pos++]! << bitcnt;
      bitcnt += 8;
    }
    const v = bitbuf & ((1 << n) - 1);
    bitbuf >>>= n;
    bitcnt -= n;
    return v;
  };
  /** The next symbol of `code`, or -1. */
  const symbol = (code: Code): number => {
    while (bitcnt < code.bits && pos < end) {
      bitbuf |= src[pos++]! << bitcnt;
      bitcnt += 8;
    }
    const e = code.table[bitbuf & ((1 << code.bits) - 1)]!;
    const l = e & 15;
    if (e === 0 || l > bitcnt) return FAIL;
    bitbuf >>>= l;
    bitcnt -= l;
    return e >> 4;
  };
  /** Drops the bits of a partly used byte and gives back whole bytes read ahead. */
  const align = (): void => {
    pos -= bitcnt >> 3;
    bitbuf = 0;
    bitcnt = 0;
  };

  let last = 0;
  do {
    const head = take(3);
    if (head < 0) return FAIL;
    last = head & 1;
    const type = head >> 1;
    if (type === 0) {
      align();
      if (pos + 4 > end) return FAIL;
      const len = src[pos]! | (src[pos + 1]! << 8);
      const nlen = src[pos + 2]! | (src[pos + 3]! << 8);
      pos += 4;
      if (len !== (~nlen & 0xffff) || pos + len > end || !room(len)) return FAIL;
      out.set(src.subarray(pos, pos + len), o);
      o += len;
      pos += len;
      continue;
    }
    let lit: Code;
    let dist: Code;
    if (type === 1) {
      [lit, dist] = fixed ??= fixedCodes();
    } else if (type === 2) {
      const h = take(14);
      if (h < 0) return FAIL;
      const nlit = (h & 31) + 257;
      const ndist = ((h >> 5) & 31) + 1;
      const nclen = (h >> 10) + 4;
      if (nlit > 286 || ndist > 30) return FAIL;
      lengths.fill(0, 0, 19);
      for (let i = 0; i < nclen; i++) {
        const v = take(3);
        if (v < 0) return FAIL;
        lengths[CLEN_ORDER[i]!] = v;
      }
      const clen = buildCode(lengths, 0, 19, true);
      if (clen === null) return FAIL;
      const total = nlit + ndist;
      for (let i = 0; i < total; ) {
        const s = symbol(clen);
        if (s < 0) return FAIL;
        if (s < 16) {
          lengths[i++] = s;
          continue;
        }
        let rep: number;
        let val = 0;
        if (s === 16) {
          if (i === 0) return FAIL;
          val = lengths[i - 1]!;
          rep = take(2) + 3;
        } else if (s === 17) rep = take(3) + 3;
        else rep = take(7) + 11;
        if (rep < 3 || i + rep > total) return FAIL;
        lengths.fill(val, i, i + rep);
        i += rep;
      }
      if (lengths[256] === 0) return FAIL;
      const l = buildCode(lengths, 0, nlit, false);
      const d = buildCode(lengths, nlit, ndist, false);
      if (l === null || d === null) return FAIL;
      lit = l;
      dist = d;
    } else return FAIL;

    for (;;) {
      const s = symbol(lit);
      if (s < 256) {
        if (s < 0 || ((o >= out.length || o >= limit) && !room(1))) return FAIL;
        out[o++] = s;
        continue;
      }
      if (s === 256) break;
      const li = s - 257;
      if (li >= 29) return FAIL;
      const lx = take(LEN_EXTRA[li]!);
      const ds = symbol(dist);
      if (lx < 0 || ds < 0 || ds >= 30) return FAIL;
      const dx = take(DIST_EXTRA[ds]!);
      if (dx < 0) return FAIL;
      const len = LEN_BASE[li]! + lx;
      const d = DIST_BASE[ds]! + dx;
      if (d > o - start || !room(len)) return FAIL;
      if (d >= len) out.copyWithin(o, o - d, o - d + len);
      else for (let i = 0; i < len; i++) out[o + i] = out[o - d + i]!;
      o += len;
    }
  } while (!last);

  align();
  if (pos + 4 > end) return FAIL;
  const check = ((src[pos]! << 24) | (src[pos + 1]! << 16) | (src[pos + 2]! << 8) | src[pos + 3]!) >>> 0;
  if (adler32(out, start, o) !== check) return FAIL;
  sink.buf = out;
  sink.len = o;
  return pos + 4;
}

/** Adler-32 of `b[from, to)`. */
export function adler32(b: Uint8Array, from: number, to: number): number {
  let a = 1;
  let s = 0;
  for (let i = from; i < to; ) {
    // Short runs keep both sums below 2^31 (small integers for V8) before the modulo.
    const stop = Math.min(to, i + 3800);
    for (; i < stop; i++) {
      a += b[i]!;
      s += a;
    }
    a %= 65521;
    s %= 65521;
  }
  return ((s << 16) | a) >>> 0;
}
