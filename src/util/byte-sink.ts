import { writeAllSync } from './output.js';
import { TerminalByteEscaper } from '../text/escape.js';
import { cFixed } from './cfmt.js';

/**
 * A fast byte-level text sink: strings are copied into a large reusable buffer as latin1 (one byte per char) and
 * written to a file descriptor when it fills (or, with no descriptor, kept in memory: `text()`). Printing millions
 * of lines this way builds no JS strings: numbers are written digit by digit straight into the buffer.
 */
export class ByteSink {
  /** Output in [0, cap); byte strings kept for copying ("stash") in [cap, cap + stashEnd). */
  private buf: Uint8Array;
  private cap: number;
  private stashEnd = 0;
  private pos = 0;
  private readonly escaper: TerminalByteEscaper | null;
  private readonly kept: Uint8Array[] | null;

  /** `fd` null: keep the output in memory. `escape`: write control characters as visible escapes (for a terminal). */
  constructor(
    private readonly fd: number | null,
    size = 1 << 20,
    escape = false,
  ) {
    this.cap = size;
    this.buf = new Uint8Array(size + 4096);
    this.escaper = escape ? new TerminalByteEscaper() : null;
    this.kept = fd === null ? [] : null;
  }

  /** Everything written so far, one char per byte (a sink without a descriptor). */
  text(): string {
    this.flush();
    return Buffer.concat(this.kept ?? []).toString('latin1');
  }

  private room(n: number): void {
    if (this.pos + n > this.cap) {
      this.flush();
      if (n > this.cap) this.resize(n * 2, this.buf.length - this.cap);
    }
  }

  /** A new buffer with `cap` bytes of output and `stash` bytes of stash, keeping what both hold. */
  private resize(cap: number, stash: number): void {
    const next = new Uint8Array(cap + stash);
    next.set(this.buf.subarray(0, this.pos));
    next.set(this.buf.subarray(this.cap, this.cap + this.stashEnd), cap);
    this.buf = next;
    this.cap = cap;
  }

  /**
   * Keeps a latin1 string for copying into the output many times (`putStash`); returns its handle. A copy within
   * one buffer is a native move: per line far cheaper than a loop over bytes.
   */
  stash(s: string): number {
    const at = this.stashEnd;
    if (this.cap + at + s.length > this.buf.length) this.resize(this.cap, 2 * (at + s.length) + 4096);
    const buf = this.buf;
    const base = this.cap + at;
    for (let i = 0; i < s.length; i++) buf[base + i] = s.charCodeAt(i);
    this.stashEnd = at + s.length;
    return at;
  }

  /** The handle the next `stash` returns; `stashReset(mark)` forgets everything stashed from `mark` on. */
  stashMark(): number {
    return this.stashEnd;
  }

  stashReset(mark: number): void {
    this.stashEnd = mark;
  }

  /** Copies `len` stashed bytes from `handle` on to `at` of a `reserve`d stretch; returns where they end. */
  stashTo(at: number, handle: number, len: number): number {
    this.buf.copyWithin(at, this.cap + handle, this.cap + handle + len);
    return at + len;
  }

  /** Copies `len` stashed bytes from `handle` on into the output. */
  putStash(handle: number, len: number): void {
    if (this.pos + len > this.cap) this.room(len);
    this.buf.copyWithin(this.pos, this.cap + handle, this.cap + handle + len);
    this.pos += len;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    const buf = this.buf;
    let p = this.pos;
    if (n < 32) for (let i = 0; i < n; i++) buf[p++] = b[i];
    else {
      buf.set(b, p);
      p += n;
    }
    this.pos = p;
  }

  /** Writes a string whose chars are all < 256 (latin1). */
  write(s: string): void {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    let p = this.pos;
    if (n < 64) for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    else p += Buffer.prototype.latin1Write.call(buf, s, p, n);
    this.pos = p;
  }

  /**
   * One `head name value` line fragment in a single call (the record printers' hot path): `head[from, to)` and
   * `name` are copied, then the safe integer `v` in decimal.
   */
  headNameInt(head: Uint8Array, from: number, to: number, name: Uint8Array, v: number): void {
    const hn = to - from;
    const nn = name.length;
    if (this.pos + hn + nn + 24 > this.cap) this.room(hn + nn + 24);
    const buf = this.buf;
    let p = this.pos;
    if (hn > 48) buf.set(head.subarray(from, to), p);
    else for (let i = 0; i < hn; i++) buf[p + i] = head[from + i];
    p += hn;
    for (let i = 0; i < nn; i++) buf[p++] = name[i];
    this.pos = putIntPad(buf, p, v, 0);
  }

  /** Like `headNameInt` with a latin1 string value. */
  headNameText(head: Uint8Array, from: number, to: number, name: Uint8Array, v: string): void {
    const hn = to - from;
    const nn = name.length;
    const vn = v.length;
    if (this.pos + hn + nn + vn > this.cap) this.room(hn + nn + vn);
    const buf = this.buf;
    let p = this.pos;
    if (hn > 48) buf.set(head.subarray(from, to), p);
    else for (let i = 0; i < hn; i++) buf[p + i] = head[from + i];
    p += hn;
    for (let i = 0; i < nn; i++) buf[p++] = name[i];
    for (let i = 0; i < vn; i++) buf[p++] = v.charCodeAt(i);
    this.pos = p;
  }

  /** C `%<width>d` of a safe integer (`%<width>s` of its text otherwise): right-aligned, space-padded. */
  intPad(v: number, width: number): void {
    if (!Number.isSafeInteger(v)) {
      this.textPad(String(v), width);
      return;
    }
    if (this.pos + width + 18 > this.cap) this.room(width + 18);
    this.pos = putIntPad(this.buf, this.pos, v, width);
  }

  /** C `%<width>s` of a latin1 string. */
  textPad(s: string, width: number): void {
    const n = s.length;
    if (n >= width) {
      this.write(s);
      return;
    }
    this.room(width);
    const buf = this.buf;
    let p = this.pos;
    for (let k = width - n; k > 0; k--) buf[p++] = 32;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** C `%<width>.<digits>f` of a double (digits ≤ 9), exactly as glibc prints it (see `putFixedPad`). */
  fixedPad(x: number, width: number, digits: number): void {
    if (this.pos + width + 24 > this.cap) this.room(width + 24);
    const p = putFixedPad(this.buf, this.pos, x, width, digits);
    if (p >= 0) this.pos = p;
    else this.textPad(cFixed(x, digits), width);
  }

  /**
   * Room for `n` more bytes: returns the buffer, to be written from `at` on; then `advance` to where writing ended
   * (the printers' hot loops write whole lines with the `put…` functions this way).
   */
  reserve(n: number): Uint8Array {
    if (this.pos + n > this.cap) this.room(n);
    return this.buf;
  }

  get at(): number {
    return this.pos;
  }

  advance(to: number): void {
    this.pos = to;
  }

  /** Writes what is buffered; `final`: the output ends here (an escaping sink then writes what it held back). */
  flush(final = false): void {
    if (this.pos === 0 && !(final && this.escaper)) return;
    const chunk = this.buf.subarray(0, this.pos);
    const bytes = this.escaper ? this.escaper.push(chunk, final) : chunk;
    if (this.kept) this.kept.push(Uint8Array.from(bytes));
    else writeAllSync(this.fd as number, bytes);
    this.pos = 0;
  }
}

/** Decimal digits of a non-negative safe integer. */
function digitCount(v: number): number {
  if (v < 1e8) return v < 1e4 ? (v < 100 ? (v < 10 ? 1 : 2) : v < 1000 ? 3 : 4) : v < 1e6 ? (v < 1e5 ? 5 : 6) : v < 1e7 ? 7 : 8;
  let n = 9;
  while (n < 16 && v >= POW10_16[n]) n++;
  return n;
}
const POW10_16 = Array.from({ length: 17 }, (_, k) => 10 ** k);

/** "00" … "99": the two ASCII digits of n at 2n, 2n + 1. */
const PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 48 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)));

/**
 * Writes the digits of a non-negative safe integer ending just before `end`: two digits per step from a table, in
 * 32-bit integer arithmetic (a value of 10^8 or more is cut into 8-digit groups first).
 */
function putDigits(buf: Uint8Array, end: number, v: number): void {
  let q = end;
  while (v >= 1e8) {
    let hi = Math.floor(v / 1e8);
    let lo = v - hi * 1e8;
    if (lo < 0) {
      // v / 1e8 rounded up to the next whole number
      hi--;
      lo += 1e8;
    }
    for (let k = 0; k < 4; k++) {
      const t = (lo / 100) | 0;
      const d = (lo - t * 100) << 1;
      buf[--q] = PAIRS[d + 1];
      buf[--q] = PAIRS[d];
      lo = t;
    }
    v = hi;
  }
  while (v >= 100) {
    const t = (v / 100) | 0;
    const d = (v - t * 100) << 1;
    buf[--q] = PAIRS[d + 1];
    buf[--q] = PAIRS[d];
    v = t;
  }
  if (v >= 10) {
    buf[--q] = PAIRS[(v << 1) + 1];
    buf[--q] = PAIRS[v << 1];
  } else buf[--q] = 48 + v;
}

/** C `%<width>d` of a safe integer into `buf` at `p` (room for width + 17 bytes); returns the end. */
export function putIntPad(buf: Uint8Array, p: number, v: number, width: number): number {
  const neg = v < 0;
  const a = neg ? -v : v;
  const nd = digitCount(a);
  for (let k = width - nd - (neg ? 1 : 0); k > 0; k--) buf[p++] = 32;
  if (neg) buf[p++] = 45;
  p += nd;
  putDigits(buf, p, a);
  return p;
}

/**
 * C `%<width>.<digits>f` of a double (digits ≤ 9) into `buf` at `p` (room for width + 24 bytes); returns the end,
 * or -1 when only the exact `cFixed` can say (nothing written then). The value is scaled and rounded in doubles
 * where that provably gives glibc's digits: a scaled value below 2^43, whose scaling error is at most 2^-10, with
 * a fraction not within 1 % of a half. Ties, near-ties, huge values, NaN, infinities and -0 take the exact path.
 */
export function putFixedPad(buf: Uint8Array, p: number, x: number, width: number, digits: number): number {
  const scale = POW10_16[digits];
  const neg = x < 0; // glibc keeps the sign of a negative value that rounds to zero: -0.0000
  const a = neg ? -x : x;
  const y = a * scale;
  if (!(y < 8796093022208) || (x === 0 && 1 / x < 0)) return -1;
  const fl = Math.floor(y);
  const f = y - fl;
  if (f > 0.49 && f < 0.51) return -1;
  const r = f < 0.5 ? fl : fl + 1;
  let ip = Math.floor(r / scale);
  let frac = r - ip * scale;
  if (frac < 0) {
    ip--;
    frac += scale;
  } else if (frac >= scale) {
    ip++;
    frac -= scale;
  }
  const nd = digitCount(ip);
  for (let k = width - nd - (neg ? 1 : 0) - (digits > 0 ? digits + 1 : 0); k > 0; k--) buf[p++] = 32;
  if (neg) buf[p++] = 45;
  p += nd;
  putDigits(buf, p, ip);
  if (digits > 0) {
    buf[p] = 46;
    p += digits + 1;
    let q = p;
    for (let k = 0; k < digits; k++) {
      const t = (frac / 10) | 0;
      buf[--q] = 48 + frac - t * 10;
      frac = t;
    }
  }
  return p;
}
