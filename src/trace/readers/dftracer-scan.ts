/**
 * A hand-written scanner for DFTracer event lines, working on the raw bytes of a line (no `JSON.parse`, no string per
 * line). It accepts the common shape — one flat JSON object whose values are strings without escapes, numbers, or
 * (for `args`) one nested flat object — and fills a reusable `DfRecord` with exactly the values the reader would have
 * derived from `JSON.parse` of the same line (`fillFromObject` is that derivation). Anything else (escapes, `null`,
 * `true`/`false`, arrays, deeper nesting, malformed JSON, non-ASCII whitespace) makes `scan` return false, and the
 * caller falls back to `JSON.parse` of the line, which also produces the error messages for malformed lines.
 * Lines of one tracer mostly repeat the keys and most values of an earlier line of the same kind: a line is first
 * compared with a recent line of its shape, and only the members that differ are read (`DfScanner.scan`).
 */

/** The fields of one event line the DFTracer reader uses, with `JSON.parse` semantics. */
export class DfRecord {
  /** `name` as a string (`String(v ?? '')` for non-strings). */
  name = '';
  /** `cat` when it is a string, else ''. */
  cat = '';
  /** `ph`: a string, a number, or undefined. */
  ph: string | number | undefined = undefined;
  /** `type` when it is a number, else 0. */
  type = 0;
  /** `String(pid)` or undefined. */
  pid: string | undefined = undefined;
  ts = NaN;
  dur = NaN;
  // args
  hhash: string | undefined = undefined;
  fhash: string | undefined = undefined;
  hostname: string | undefined = undefined;
  fname: string | undefined = undefined;
  /** `String(args.fd)` when present (and not null). */
  fd: string | undefined = undefined;
  /** true when `args.fd` is present (even if null). */
  hasFd = false;
  ret = NaN;
  retSum = NaN;
  hasRetSum = false;
  count = NaN;
  countSum = NaN;
  hasCountSum = false;
  size = NaN;
  offset = NaN;
  dftCnt = NaN;
  value: string | undefined = undefined;
  argName: string | undefined = undefined;
  execHash: string | undefined = undefined;
  cmdHash: string | undefined = undefined;

  reset(): void {
    this.name = '';
    this.cat = '';
    this.ph = undefined;
    this.type = 0;
    this.pid = undefined;
    this.ts = NaN;
    this.dur = NaN;
    this.resetArgs();
  }

  resetArgs(): void {
    this.hhash = undefined;
    this.fhash = undefined;
    this.hostname = undefined;
    this.fname = undefined;
    this.fd = undefined;
    this.hasFd = false;
    this.ret = NaN;
    this.retSum = NaN;
    this.hasRetSum = false;
    this.count = NaN;
    this.countSum = NaN;
    this.hasCountSum = false;
    this.size = NaN;
    this.offset = NaN;
    this.dftCnt = NaN;
    this.value = undefined;
    this.argName = undefined;
    this.execHash = undefined;
    this.cmdHash = undefined;
  }
}

/** `Number(v)` for numbers and non-empty numeric strings, else NaN. */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : NaN;
  }
  return NaN;
}

/** A hash-like value as a string key (`String(v)`), or undefined for undefined/null. */
export function key(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : String(v);
}

/** Fills `r` from a parsed event object (the reference semantics the scanner reproduces). */
export function fillFromObject(ev: Record<string, unknown>, r: DfRecord): void {
  r.reset();
  r.name = typeof ev.name === 'string' ? ev.name : String(ev.name ?? '');
  r.cat = typeof ev.cat === 'string' ? ev.cat : '';
  r.ph = typeof ev.ph === 'string' || typeof ev.ph === 'number' ? ev.ph : ev.ph === undefined ? undefined : (null as unknown as undefined);
  r.type = typeof ev.type === 'number' ? ev.type : 0;
  r.pid = key(ev.pid);
  r.ts = num(ev.ts);
  r.dur = num(ev.dur);
  const args = (ev.args && typeof ev.args === 'object' ? ev.args : {}) as Record<string, unknown>;
  r.hhash = key(args.hhash);
  r.fhash = key(args.fhash);
  r.hostname = typeof args.hostname === 'string' ? args.hostname : undefined;
  r.fname = typeof args.fname === 'string' ? args.fname : undefined;
  r.hasFd = args.fd !== undefined;
  r.fd = key(args.fd);
  r.ret = num(args.ret);
  r.hasRetSum = args.ret_sum !== undefined;
  r.retSum = num(args.ret_sum);
  r.count = num(args.count);
  r.hasCountSum = args.count_sum !== undefined;
  r.countSum = num(args.count_sum);
  r.size = num(args.size);
  r.offset = num(args.offset);
  r.dftCnt = num(args.dft_cnt);
  r.value = key(args.value);
  r.argName = typeof args.name === 'string' ? args.name : undefined;
  r.execHash = key(args.exec_hash);
  r.cmdHash = key(args.cmd_hash);
}

// ---- the byte scanner ---------------------------------------------------------------------------------------------

const enum K {
  OTHER,
  NAME,
  CAT,
  PH,
  TYPE,
  PID,
  TS,
  DUR,
  ARGS,
  HHASH,
  FHASH,
  HOSTNAME,
  FNAME,
  FD,
  RET,
  RET_SUM,
  COUNT,
  COUNT_SUM,
  SIZE,
  OFFSET,
  DFT_CNT,
  VALUE,
  EXEC_HASH,
  CMD_HASH,
}

function hashBytes(b: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h >>> 0;
}

/** True when b[s, s + lit.length) spells `lit` (ASCII). */
function is(b: Uint8Array, s: number, lit: string): boolean {
  for (let i = 0; i < lit.length; i++) if (b[s + i] !== lit.charCodeAt(i)) return false;
  return true;
}

/** Identifies a member name in b[s, e) (top level or inside `args`). */
function matchKey(b: Uint8Array, s: number, e: number, inArgs: boolean): K {
  const c = b[s];
  switch (e - s) {
    case 2:
      if (inArgs) return c === 102 && b[s + 1] === 100 ? K.FD : K.OTHER; // fd
      if (c === 112) return b[s + 1] === 104 ? K.PH : K.OTHER; // ph
      if (c === 116) return b[s + 1] === 115 ? K.TS : K.OTHER; // ts
      return K.OTHER;
    case 3:
      if (inArgs) return c === 114 && is(b, s, 'ret') ? K.RET : K.OTHER;
      if (c === 99) return is(b, s, 'cat') ? K.CAT : K.OTHER;
      if (c === 112) return is(b, s, 'pid') ? K.PID : K.OTHER;
      if (c === 100) return is(b, s, 'dur') ? K.DUR : K.OTHER;
      return K.OTHER;
    case 4:
      if (c === 110) return is(b, s, 'name') ? K.NAME : K.OTHER;
      if (inArgs) return c === 115 && is(b, s, 'size') ? K.SIZE : K.OTHER;
      if (c === 116) return is(b, s, 'type') ? K.TYPE : K.OTHER;
      if (c === 97) return is(b, s, 'args') ? K.ARGS : K.OTHER;
      return K.OTHER;
    case 5:
      if (!inArgs) return K.OTHER;
      if (c === 104) return is(b, s, 'hhash') ? K.HHASH : K.OTHER;
      if (c === 102) return is(b, s, 'fhash') ? K.FHASH : is(b, s, 'fname') ? K.FNAME : K.OTHER;
      if (c === 99) return is(b, s, 'count') ? K.COUNT : K.OTHER;
      if (c === 118) return is(b, s, 'value') ? K.VALUE : K.OTHER;
      return K.OTHER;
    case 6:
      return inArgs && c === 111 && is(b, s, 'offset') ? K.OFFSET : K.OTHER;
    case 7:
      if (!inArgs) return K.OTHER;
      if (c === 114) return is(b, s, 'ret_sum') ? K.RET_SUM : K.OTHER;
      if (c === 100) return is(b, s, 'dft_cnt') ? K.DFT_CNT : K.OTHER;
      return K.OTHER;
    case 8:
      if (!inArgs) return K.OTHER;
      if (c === 104) return is(b, s, 'hostname') ? K.HOSTNAME : K.OTHER;
      if (c === 99) return is(b, s, 'cmd_hash') ? K.CMD_HASH : K.OTHER;
      return K.OTHER;
    case 9:
      if (!inArgs) return K.OTHER;
      if (c === 99) return is(b, s, 'count_sum') ? K.COUNT_SUM : K.OTHER;
      if (c === 101) return is(b, s, 'exec_hash') ? K.EXEC_HASH : K.OTHER;
      return K.OTHER;
    default:
      return K.OTHER;
  }
}

interface InternEntry {
  bytes: Uint8Array;
  str: string;
}

/** A `DataView` of the last buffer asked for (the lines of one chunk share their buffer). */
class ViewCache {
  private view: DataView = new DataView(new ArrayBuffer(0));
  private of: Buffer | null = null;

  get(b: Buffer): DataView {
    if (b !== this.of) {
      this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      this.of = b;
    }
    return this.view;
  }
}

/** The shape of a recent line: its bytes, where its members start, their fields, and the record of its values. */
class Shape {
  /** The values of the shape's line (what `scan` returns for lines of this shape). */
  readonly rec = new DfRecord();
  /** The shape may guide other lines (its line was recorded completely, without a repeated field). */
  ok = false;
  /** The shape of the line that followed a line of this shape last time (the first one tried after it). */
  follow: Shape | null = null;
  /** The line: `buf[off, off + len)`. */
  buf: Buffer | null = null;
  off = 0;
  len = 0;
  /** Per member (both levels, in order): where it starts (its key's quote, relative to the line)… */
  start: Int32Array = new Int32Array(MAX_SEGMENTS);
  /** …the bytes from there to its value… */
  keyLen = new Int32Array(MAX_SEGMENTS);
  /** …its field, and bit 0 = inside `args`, bit 1 = the `args` member itself (its value is the nested object). */
  key = new Uint8Array(MAX_SEGMENTS);
  flags = new Uint8Array(MAX_SEGMENTS);
  n = 0;
  /** A view of the line's buffer (`again` reads it four bytes at a time). */
  readonly view = new ViewCache();

  /** Takes `b[s, e)` as the shape's line. */
  keep(b: Buffer, s: number, e: number): void {
    this.buf = b;
    this.off = s;
    this.len = e - s;
  }

  /** Takes `starts` as the member starts; returns the ones it had. */
  swapStarts(starts: Int32Array): Int32Array {
    const old = this.start;
    this.start = starts;
    return old;
  }
}

/**
 * Scans event lines. One scanner per reader: it interns the strings it produces (names, categories, hashes,
 * pids), so repeated values cost no allocation.
 */
export class DfScanner {
  private interned = new Map<number, InternEntry | InternEntry[]>();
  private internCount = 0;
  // results of the last token read
  private pos = 0;
  private tokStart = 0;
  private tokEnd = 0;
  private tokHigh = false;
  private tokNum = 0;
  /** 1 string, 2 number (fast integer), 3 number (general) */
  private tokKind = 0;

  private str(b: Buffer, s: number, e: number, high: boolean): string {
    const h = hashBytes(b, s, e);
    const hit = this.interned.get(h);
    if (hit !== undefined) {
      if (Array.isArray(hit)) {
        for (const x of hit) if (sameBytes(x.bytes, b, s, e)) return x.str;
      } else if (sameBytes(hit.bytes, b, s, e)) return hit.str;
    }
    const str = high ? b.toString('utf8', s, e) : b.toString('latin1', s, e);
    if (e - s <= 256 && this.internCount < 1 << 16) {
      const ent = { bytes: Uint8Array.prototype.slice.call(b, s, e), str };
      this.internCount++;
      if (hit === undefined) this.interned.set(h, ent);
      else if (Array.isArray(hit)) hit.push(ent);
      else this.interned.set(h, [hit, ent]);
    }
    return str;
  }

  /** Reads a string token at `pos` (which holds the opening quote). False on escapes or control characters. */
  private readString(b: Buffer, end: number): boolean {
    let i = this.pos + 1;
    let high = false;
    for (; i < end; i++) {
      const c = b[i];
      if (c === 34) break;
      if (c === 92 || c < 32) return false;
      if (c >= 128) high = true;
    }
    if (i >= end) return false;
    this.tokStart = this.pos + 1;
    this.tokEnd = i;
    this.tokHigh = high;
    this.tokKind = 1;
    this.pos = i + 1;
    return true;
  }

  /** Reads a JSON number at `pos`. False when it is not valid JSON number syntax. */
  private readNumber(b: Buffer, end: number): boolean {
    let i = this.pos;
    const s = i;
    let neg = false;
    if (b[i] === 45) {
      neg = true;
      i++;
    }
    if (i >= end) return false;
    let c = b[i];
    let v = 0;
        if (c === 48) {
      i++;
    } else if (c >= 49 && c <= 57) {
      while (i < end && (c = b[i]) >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        i++;
      }
    } else return false;
    let simple = true;
    if (i < end && b[i] === 46) {
      simple = false;
      i++;
      const f = i;
      while (i < end && b[i] >= 48 && b[i] <= 57) i++;
      if (i === f) return false;
    }
    if (i < end && (b[i] === 101 || b[i] === 69)) {
      simple = false;
      i++;
      if (i < end && (b[i] === 43 || b[i] === 45)) i++;
      const f = i;
      while (i < end && b[i] >= 48 && b[i] <= 57) i++;
      if (i === f) return false;
    }
    this.tokStart = s;
    this.tokEnd = i;
    this.pos = i;
    // digits accumulate exactly while the value stays ≤ 2^53 − 1 (then JSON.parse gives the same value)
    if (simple && v <= 9007199254740991) {
      this.tokNum = neg ? -v : v;
      this.tokKind = neg && v === 0 ? 3 : 2;
    } else {
      this.tokNum = Number(b.toString('latin1', s, i));
      this.tokKind = 3;
    }
    return true;
  }

  /** Reads a scalar value (string or number) at `pos`. */
  private readScalar(b: Buffer, end: number): boolean {
    const c = b[this.pos];
    if (c === 34) return this.readString(b, end);
    if (c === 45 || (c >= 48 && c <= 57)) return this.readNumber(b, end);
    return false;
  }

  /** Last string produced per field (most lines repeat the previous line's pid, cat, hashes…). */
  private lastBytes: (Uint8Array | undefined)[] = [];
  private lastStr: string[] = [];

  /** The last token as `key()` would give it; `k` selects the per-field cache. */
  private tokKey(b: Buffer, k: K): string {
    if (this.tokKind === 3) return String(this.tokNum);
    const s = this.tokStart;
    const e = this.tokEnd;
    const last = this.lastBytes[k];
    if (last !== undefined && sameBytes(last, b, s, e)) return this.lastStr[k];
    const str = this.str(b, s, e, this.tokKind === 1 && this.tokHigh);
    this.lastBytes[k] = Uint8Array.prototype.slice.call(b, s, e);
    this.lastStr[k] = str;
    return str;
  }

  /** The last token as `num()` would give it. */
  private tokNumber(b: Buffer): number {
    if (this.tokKind !== 1) return this.tokNum;
    if (this.tokEnd === this.tokStart) return NaN;
    const n = Number(this.tokHigh ? b.toString('utf8', this.tokStart, this.tokEnd) : b.toString('latin1', this.tokStart, this.tokEnd));
    return Number.isFinite(n) ? n : NaN;
  }

  private skipWs(b: Buffer, end: number): void {
    this.pos = afterWs(b, this.pos, end);
  }

  /**
   * `b` is about to be filled with other bytes: the shapes whose line lies in it keep a copy of their line instead
   * (at most `SHAPES` lines of at most `MAX_SHAPE_LINE` bytes, once per chunk of the file).
   */
  release(b: Buffer): void {
    for (const sh of this.mru) {
      if (sh.buf !== b) continue;
      sh.keep(Buffer.from(b.subarray(sh.off, sh.off + sh.len)), 0, sh.len);
    }
  }

  /**
   * Scans the event object in `b[s, e)` (the line with surrounding whitespace already trimmed; a trailing `,` is
   * allowed). Returns the record of its values — the scanner's own, valid until the next call; read it, do not change
   * it — or null when the line must go through `JSON.parse` instead.
   *
   * Lines written by one tracer mostly repeat the keys of a recent line in the same order, and most values too (an
   * open, many writes, a close; in DFTracer's own traces, events after the metadata lines that name their files). The
   * scanner keeps the shapes of the last `SHAPES` lines of different shapes, each with the record of its values, and
   * first reads a line against them (`again`): a member whose bytes (key, value and the separators up to the next key)
   * equal those of the shape's line keeps its field; a member with the same key and another value is read and
   * assigned once the whole line is known to have the shape. Any other difference (another key, another nesting) sends
   * the line through the general scan, which records its shape in place of the one used least recently. A line with a
   * repeated key is never used as a shape (its first value would be kept where the last one counts), nor is a line
   * longer than `MAX_SHAPE_LINE`; lines that keep fitting no shape are compared with the shapes only now and then.
   *
   * The bytes of a shape's line are not copied: the caller must not change bytes it has handed to `scan` before it
   * calls `release` with their buffer (the reader's line splitter does so before it fills a buffer again).
   */
  scan(b: Buffer, s: number, e: number): DfRecord | null {
    if (b[s] !== 123) return null;
    // first the shape that followed the last line's shape last time, then the others, most recently used first;
    // after MISS_RUN lines in a row that fitted none, only every MISS_RUN-th line tries them (lines of ever new or
    // rotating shapes would otherwise be compared with every shape before their general scan)
    const mru = this.mru;
    if (this.misses < MISS_RUN || this.misses % MISS_RUN === 0) {
      const guess = mru[0].follow;
      if (guess !== null && guess.ok && this.tryShape(guess, b, s, e)) return this.fits(guess, b, s, e);
      for (let t = 0; t < mru.length; t++) {
        const sh = mru[t];
        if (sh !== guess && sh.ok && this.tryShape(sh, b, s, e)) return this.fits(sh, b, s, e);
      }
    }
    this.misses++;
    // the general scan, recording the line's shape in place of the one used least recently
    const sh = mru[mru.length - 1];
    const r = sh.rec;
    sh.ok = false;
    r.reset();
    this.recorded = sh;
    this.pos = s + 1;
    this.lineStart = s;
    sh.n = 0;
    this.seen = 0;
    this.seenArgs = 0;
    this.recording = true;
    if (!this.object(b, e, r, false)) return null;
    // after the object: optional whitespace and one optional trailing comma, then the end
    this.skipWs(b, e);
    if (this.pos < e && b[this.pos] === 44) this.pos++;
    if (this.pos !== e) return null;
    if (this.recording && sh.n > 0 && e - s <= MAX_SHAPE_LINE) {
      sh.keep(b, s, e);
      sh.ok = true;
    }
    this.use(sh);
    return r;
  }

  /** Compares the line with a shape (counted in `tries`). */
  private tryShape(sh: Shape, b: Buffer, s: number, e: number): boolean {
    this.tries++;
    return this.again(sh, b, s, e);
  }

  /** The line `b[s, e)` fitted `sh`: it becomes the shape's line. */
  private fits(sh: Shape, b: Buffer, s: number, e: number): DfRecord {
    this.misses = 0;
    sh.keep(b, s, e);
    this.next = sh.swapStarts(this.next);
    this.use(sh);
    this.reused++;
    return sh.rec;
  }

  // ---- the shapes of recent lines ----

  /** Lines read against a recent line's shape so far, and comparisons of a line with a shape. */
  reused = 0;
  tries = 0;
  /** Lines in a row that fitted no shape. */
  private misses = 0;

  /** The shapes, most recently used first. */
  private mru = Array.from({ length: SHAPES }, () => new Shape());

  /** Member starts of the line being read against a shape (swapped with the shape's own when it matches). */
  private next: Int32Array = new Int32Array(MAX_SEGMENTS);
  /** A view of the line being read against a shape. */
  private readonly view = new ViewCache();
  // the members whose values differ from the shape's line, read and assigned once the line is known to fit
  private chSeg = new Int32Array(MAX_SEGMENTS);
  private chKind = new Uint8Array(MAX_SEGMENTS);
  private chHigh = new Uint8Array(MAX_SEGMENTS);
  private chStart = new Int32Array(MAX_SEGMENTS);
  private chEnd = new Int32Array(MAX_SEGMENTS);
  private chNum = new Float64Array(MAX_SEGMENTS);
  // recording during the general scan
  /** The shape the general scan records the line into. */
  private recorded: Shape = this.mru[0];
  private lineStart = 0;
  private recording = false;
  /** fields seen so far (bit K), at the top level and inside `args`: a repeated field makes the shape unusable */
  private seen = 0;
  private seenArgs = 0;

  /** `sh` is the shape of the line just read: it follows the last line's shape, and is now the most recent. */
  private use(sh: Shape): void {
    const mru = this.mru;
    mru[0].follow = sh;
    let i = mru.indexOf(sh);
    for (; i > 0; i--) mru[i] = mru[i - 1];
    mru[0] = sh;
  }

  /** Records the member whose key starts at `pos` (general scan). */
  private beginMember(): void {
    const sh = this.recorded;
    const n = sh.n;
    if (n === MAX_SEGMENTS) {
      this.recording = false;
      return;
    }
    sh.start[n] = this.pos - this.lineStart;
    sh.n = n + 1;
  }

  /** Completes the member begun last: its value starts at `pos`. */
  private endKey(k: K, inArgs: boolean): void {
    const sh = this.recorded;
    const n = sh.n - 1;
    sh.keyLen[n] = this.pos - this.lineStart - sh.start[n];
    sh.key[n] = k;
    sh.flags[n] = (inArgs ? 1 : 0) | (k === K.ARGS && !inArgs ? 2 : 0);
    if (k !== K.OTHER) {
      const bit = 1 << k;
      if (inArgs) {
        if ((this.seenArgs & bit) !== 0) this.recording = false;
        this.seenArgs |= bit;
      } else {
        if ((this.seen & bit) !== 0) this.recording = false;
        this.seen |= bit;
      }
    }
  }

  /**
   * Reads `b[s, e)` against the shape `sh` into its record (which holds the values of the shape's line). Returns false,
   * with the record untouched, when the line has another shape.
   */
  private again(sh: Shape, b: Buffer, s: number, e: number): boolean {
    const bv = this.view.get(b);
    const pv = sh.buf === b ? bv : sh.view.get(sh.buf!);
    const po = sh.off;
    const starts = sh.start;
    const next = this.next;
    const n = sh.n;
    const prevLen = sh.len;
    let changes = 0;
    let j = 0; // the first member not known equal yet
    let i = s; // where the line and the shape's line are compared from…
    let a = 0; // …and the same place in the shape's line
    for (;;) {
      // the longest equal run from here, eight bytes at a time: as doubles, equal bytes compare equal except NaNs
      // (the rest of the run is then compared four bytes at a time), and different bytes compare equal only as +0 and
      // -0, seven zero bytes the shape's line cannot hold (it was read as JSON: no control character in or out of
      // strings)
      const lim = Math.min(prevLen - a, e - i);
      let k = 0;
      while (k + 8 <= lim && bv.getFloat64(i + k, true) === pv.getFloat64(po + a + k, true)) k += 8;
      // then four bytes at a time; the first byte that differs is the lowest set byte of the XOR (little-endian)
      let x = 0;
      while (k + 4 <= lim && (x = bv.getInt32(i + k, true) ^ pv.getInt32(po + a + k, true)) === 0) k += 4;
      if (x !== 0) k += (31 - Math.clz32(x & -x)) >>> 3;
      else while (k < lim && bv.getUint8(i + k) === pv.getUint8(po + a + k)) k++;
      const shift = i - a - s; // shape-line offset + shift = offset in this line
      if (k === lim) {
        // equal to the end of one of the two lines: the same line only if both end here
        if (prevLen - a !== e - i) return false;
        for (; j < n; j++) next[j] = starts[j] + shift;
        break;
      }
      const m = a + k;
      // members that end before the first difference are unchanged
      while (j + 1 < n && starts[j + 1] <= m) {
        next[j] = starts[j] + shift;
        j++;
      }
      const at = starts[j];
      const kl = sh.keyLen[j];
      const fl = sh.flags[j];
      // a difference before the first key, in a key, or in the `args` member itself: another shape
      if (m < at + kl || (fl & 2) !== 0) return false;
      next[j] = at + shift;
      this.pos = at + shift + s + kl;
      if (!this.readScalar(b, e)) return false;
      if (sh.key[j] !== K.OTHER) {
        this.chSeg[changes] = j;
        this.chKind[changes] = this.tokKind;
        this.chHigh[changes] = this.tokHigh ? 1 : 0;
        this.chStart[changes] = this.tokStart;
        this.chEnd[changes] = this.tokEnd;
        this.chNum[changes] = this.tokNum;
        changes++;
      }
      // separators up to the next key, which must be at the level the shape has there
      const inArgs = (fl & 1) !== 0;
      i = afterWs(b, this.pos, e);
      if (i >= e) return false;
      let c = b[i++];
      let level = inArgs;
      if (c === 125 && inArgs) {
        i = afterWs(b, i, e);
        if (i >= e) return false;
        c = b[i++];
        level = false;
      }
      if (c === 125) {
        // the end of the event: optional whitespace, one optional comma, the end of the line
        i = afterWs(b, i, e);
        if (i < e && b[i] === 44) i++;
        if (i !== e || j !== n - 1) return false;
        break;
      }
      if (c !== 44) return false;
      i = afterWs(b, i, e);
      j++;
      if (j === n || i >= e || b[i] !== 34 || ((sh.flags[j] & 1) !== 0) !== level) return false;
      a = starts[j];
    }
    // the line has the shape: assign what changed
    for (let c = 0; c < changes; c++) {
      const seg = this.chSeg[c];
      this.tokKind = this.chKind[c];
      this.tokHigh = this.chHigh[c] === 1;
      this.tokStart = this.chStart[c];
      this.tokEnd = this.chEnd[c];
      this.tokNum = this.chNum[c];
      this.assign(b, sh.rec, sh.key[seg] as K, (sh.flags[seg] & 1) !== 0);
    }
    return true;
  }

  /** Scans members after `{` up to and including `}`. Whitespace is skipped only where there is some. */
  private object(b: Buffer, end: number, r: DfRecord, inArgs: boolean): boolean {
    if (this.pos < end && b[this.pos] <= 32) this.skipWs(b, end);
    if (this.pos < end && b[this.pos] === 125) {
      this.pos++;
      return true;
    }
    for (;;) {
      if (this.pos >= end || b[this.pos] !== 34) return false;
      if (this.recording) this.beginMember();
      if (!this.readString(b, end)) return false;
      const k = this.tokHigh ? K.OTHER : matchKey(b, this.tokStart, this.tokEnd, inArgs);
      if (this.pos < end && b[this.pos] <= 32) this.skipWs(b, end);
      if (this.pos >= end || b[this.pos] !== 58) return false;
      this.pos++;
      if (this.pos < end && b[this.pos] <= 32) this.skipWs(b, end);
      if (this.pos >= end) return false;
      if (this.recording) this.endKey(k, inArgs);
      if (k === K.ARGS && !inArgs) {
        if (b[this.pos] !== 123) return false;
        this.pos++;
        r.resetArgs();
        if (!this.object(b, end, r, true)) return false;
      } else {
        if (!this.readScalar(b, end)) return false;
        if (k !== K.OTHER) this.assign(b, r, k, inArgs);
      }
      if (this.pos < end && b[this.pos] <= 32) this.skipWs(b, end);
      if (this.pos >= end) return false;
      const c = b[this.pos++];
      if (c === 125) return true;
      if (c !== 44) return false;
      if (this.pos < end && b[this.pos] <= 32) this.skipWs(b, end);
    }
  }

  private assign(b: Buffer, r: DfRecord, k: K, inArgs: boolean): void {
    const isStr = this.tokKind === 1;
    switch (k) {
      case K.NAME:
        if (inArgs) r.argName = isStr ? this.tokKey(b, k) : undefined;
        else r.name = this.tokKey(b, k);
        break;
      case K.CAT:
        r.cat = isStr ? this.tokKey(b, k) : '';
        break;
      case K.PH:
        r.ph = isStr ? this.tokKey(b, k) : this.tokNum;
        break;
      case K.TYPE:
        r.type = isStr ? 0 : this.tokNum;
        break;
      case K.PID:
        r.pid = this.tokKey(b, k);
        break;
      case K.TS:
        r.ts = this.tokNumber(b);
        break;
      case K.DUR:
        r.dur = this.tokNumber(b);
        break;
      case K.HHASH:
        r.hhash = this.tokKey(b, k);
        break;
      case K.FHASH:
        r.fhash = this.tokKey(b, k);
        break;
      case K.HOSTNAME:
        r.hostname = isStr ? this.tokKey(b, k) : undefined;
        break;
      case K.FNAME:
        r.fname = isStr ? this.tokKey(b, k) : undefined;
        break;
      case K.FD:
        r.hasFd = true;
        r.fd = this.tokKey(b, k);
        break;
      case K.RET:
        r.ret = this.tokNumber(b);
        break;
      case K.RET_SUM:
        r.hasRetSum = true;
        r.retSum = this.tokNumber(b);
        break;
      case K.COUNT:
        r.count = this.tokNumber(b);
        break;
      case K.COUNT_SUM:
        r.hasCountSum = true;
        r.countSum = this.tokNumber(b);
        break;
      case K.SIZE:
        r.size = this.tokNumber(b);
        break;
      case K.OFFSET:
        r.offset = this.tokNumber(b);
        break;
      case K.DFT_CNT:
        r.dftCnt = this.tokNumber(b);
        break;
      case K.VALUE:
        r.value = this.tokKey(b, k);
        break;
      case K.EXEC_HASH:
        r.execHash = this.tokKey(b, k);
        break;
      case K.CMD_HASH:
        r.cmdHash = this.tokKey(b, k);
        break;
    }
  }
}

/** The first byte at or after `i` (before `end`) that is not JSON whitespace. */
function afterWs(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i];
    if (c === 32 || c === 9 || c === 13 || c === 10) i++;
    else break;
  }
  return i;
}

/**
 * Shapes a scanner keeps. Tracers write a few kinds of line in patterns (open, many reads or writes, close; an event
 * after the metadata line that names its file): a line is tried against the shape that followed its predecessor's
 * shape last time, then against the others (a try that fails mostly stops at the first key that differs).
 */
const SHAPES = 4;

/** After this many lines in a row that fit no shape, only every this-many-th line is compared with the shapes. */
const MISS_RUN = 8;

/**
 * Longest line kept as a shape. A shape holds on to its line's buffer (a chunk of the file, a line assembled from
 * several chunks, or a copy made by `release`): four shapes keep at most four chunks alive, not four lines of up to
 * the line limit.
 */
const MAX_SHAPE_LINE = 64 * 1024;

/** Members of one line a shape holds at most (a longer line is always scanned from scratch). */
const MAX_SEGMENTS = 64;

function sameBytes(a: Uint8Array, b: Uint8Array, s: number, e: number): boolean {
  if (a.length !== e - s) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[s + i]) return false;
  return true;
}
