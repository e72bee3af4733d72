/**
 * A hand-written scanner for DFTracer event lines, working on the raw bytes of a line (no `JSON.parse`, no string per
 * line). It accepts the common shape — one flat JSON object whose values are strings without escapes, numbers, or
 * (for `args`) one nested flat object — and fills a reusable `DfRecord` with exactly the values the reader would have
 * derived from `JSON.parse` of the same line (`fillFromObject` is that derivation). Anything else (escapes, `null`,
 * `true`/`false`, arrays, deeper nesting, malformed JSON, non-ASCII whitespace) makes `scan` return false, and the
 * caller falls back to `JSON.parse` of the line, which also produces the error messages for malformed lines.
 * Lines of one tracer mostly repeat the keys and most values of an earlier line of the same kind: a line is first
 * compared with a recent line of its shape, and only the members that differ are read (`DfScanner.scan`); that
 * comparison runs in WebAssembly (wasm/dftracer-fit.ts), on lines in the module's memory, which also splits runs of
 * lines there (`DfScanner.lines`).
 */
import { WASM_BASE64, WASM_PAGES } from './dftracer-fit.wasm.generated.js';
import type { LineRun } from './lines.js';

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

/** What this file uses of the WebAssembly global (the project's `lib` has no declarations for it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

/** The fast path's module, compiled once (an instance per scanner, handed on by `dispose`). */
let compiled: object | null = null;

interface FitExports {
  memory: { buffer: ArrayBuffer };
  layout(i: number): number;
  match(s: number, e: number): number;
  keep(sh: number, s: number, e: number): void;
  release(lo: number, hi: number): void;
  reset(): void;
  use(sh: number): void;
  batch(p: number, end: number, maxLen: number): number;
}

/** Where the module keeps what (byte offsets in its memory, read from its `layout()`; wasm/dftracer-fit.ts). */
interface Layout {
  ring: number;
  chunk: number;
  rings: number;
  scratch: number;
  maxLine: number;
  tables: number;
  tSize: number;
  tKeyLen: number;
  tKey: number;
  tFlags: number;
  tMeta: number;
  segs: number;
  chSeg: number;
  chKind: number;
  chHigh: number;
  chStart: number;
  chEnd: number;
  chNum: number;
  end: number;
  shapes: number;
  chCap: number;
  outShape: number;
  outChanges: number;
  outLines: number;
  outCap: number;
  state: number;
  missRun: number;
  tVend: number;
}
const LAYOUT_KEYS = ['ring', 'chunk', 'rings', 'scratch', 'maxLine', 'tables', 'tSize', 'tKeyLen', 'tKey', 'tFlags', 'tMeta', 'segs', 'chSeg', 'chKind', 'chHigh', 'chStart', 'chEnd', 'chNum', 'end', 'shapes', 'chCap', 'outShape', 'outChanges', 'outLines', 'outCap', 'state', 'missRun', 'tVend'] as const;
let layout: Layout | null = null;

/** Instances given back by scanners that are done (a trace of many files reads them one after the other). */
const spare: FitExports[] = [];

function fitModule(): { ex: FitExports; at: Layout } {
  const kept = spare.pop();
  if (kept !== undefined) return { ex: kept, at: layout! };
  compiled ??= new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
  const ex = new WebAssembly.Instance(compiled, {}).exports as unknown as FitExports;
  if (layout === null) {
    const at = {} as Layout;
    LAYOUT_KEYS.forEach((k, i) => (at[k] = ex.layout(i)));
    // what this file's scanner assumes of the module
    if (at.segs !== MAX_SEGMENTS || at.maxLine !== MAX_SHAPE_LINE || at.shapes !== SHAPES || S.FOLLOW !== SHAPES || at.missRun !== MISS_RUN || at.end > WASM_PAGES * 65536 || ex.memory.buffer.byteLength !== WASM_PAGES * 65536) {
      throw new Error(`dftracer-fit: the module's layout does not fit the scanner (${JSON.stringify(at)})`);
    }
    layout = at;
  }
  return { ex, at: layout };
}

/**
 * The shape of a recent line: where its members start and their fields (tables in the module's memory, which also
 * holds the line itself, and the order the shapes were used in), and the record of its values.
 */
class Shape {
  /** The values of the shape's line (what `scan` returns for lines of this shape). */
  readonly rec = new DfRecord();
  /** Per member (both levels, in order): where it starts (its key's quote, relative to the line)… */
  readonly start: Int32Array;
  /** …the bytes from there to its value… */
  readonly keyLen: Int32Array;
  /** …its field, and bit 0 = inside `args`, bit 1 = the `args` member itself (its value is the nested object)… */
  readonly key: Uint8Array;
  readonly flags: Uint8Array;
  /** …and where its value ends (relative to the line). */
  readonly vend: Int32Array;
  /** The line's offset and length in the module's memory, and its member count (`n`). */
  private readonly meta: Int32Array;

  constructor(
    slot: number,
    memory: ArrayBuffer,
    at: Layout,
  ) {
    const t = at.tables + slot * at.tSize;
    this.start = new Int32Array(memory, t, at.segs);
    this.keyLen = new Int32Array(memory, t + at.tKeyLen, at.segs);
    this.key = new Uint8Array(memory, t + at.tKey, at.segs);
    this.flags = new Uint8Array(memory, t + at.tFlags, at.segs);
    this.vend = new Int32Array(memory, t + at.tVend, at.segs);
    this.meta = new Int32Array(memory, t + at.tMeta, 3);
  }

  /** Members recorded (the general scan counts them where the module reads them). */
  get n(): number {
    return this.meta[2];
  }

  set n(v: number) {
    this.meta[2] = v;
  }
}

/**
 * Scans event lines. One scanner per reader: it interns the strings it produces (names, categories, hashes,
 * pids), so repeated values cost no allocation.
 */
export class DfScanner {
  /** The fast path (the module's exports), where it keeps what, and its memory as a Buffer. */
  private readonly module = fitModule();
  private readonly fast = this.module.ex;
  private readonly at = this.module.at;
  private readonly mem = Buffer.from(this.fast.memory.buffer);
  /** The module's state (`S` indexes it): the shapes in the order they were used, and counters. */
  private readonly st = (this.fast.reset(), new Int32Array(this.mem.buffer, this.at.state, S.END));
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

  /** The scanner is done: its module instance (4.5 MiB of memory) may serve the next scanner. */
  dispose(): void {
    if (spare.length < 4 && !spare.includes(this.fast)) spare.push(this.fast);
  }

  /**
   * The `i`-th of the buffers (1 MiB each, `i` < 3) a line reader may fill in turn: lines read from them are compared
   * in place; a line from any other buffer is first copied into the module's memory.
   */
  ringBuffer(i: number): Buffer {
    const { ring, chunk, rings } = this.at;
    if (!(i >= 0 && i < rings)) throw new RangeError(`ring buffer ${i} of ${rings}`);
    return this.mem.subarray(ring + i * chunk, ring + (i + 1) * chunk);
  }

  /**
   * `b` is about to be filled with other bytes: the shapes whose line lies in it keep a copy of their line instead
   * (at most `SHAPES` lines of at most `MAX_SHAPE_LINE` bytes, once per chunk of the file). Lines in other buffers
   * were copied when they were scanned: nothing to do for those.
   */
  release(b: Buffer): void {
    if (b.buffer === this.mem.buffer) this.fast.release(b.byteOffset, b.byteOffset + b.length);
  }

  /** The buffer of the module's memory a line came from last, and its offset there. */
  private lastRing: Buffer | null = null;
  private lastRingAt = 0;

  /** Where the line `b[s, e)` lies in the module's memory, copied there when it is not; -1 when it is too long. */
  private locate(b: Buffer, s: number, e: number): number {
    if (e - s > MAX_SHAPE_LINE) return -1;
    if (b === this.lastRing) return this.lastRingAt + s;
    if (b.buffer === this.mem.buffer) {
      this.lastRing = b;
      this.lastRingAt = b.byteOffset;
      return b.byteOffset + s;
    }
    const scratch = this.at.scratch;
    b.copy(this.mem, scratch, s, e);
    return scratch;
  }

  /**
   * Scans the event object in `b[s, e)` (the line with surrounding whitespace already trimmed; a trailing `,` is
   * allowed). Returns the record of its values — the scanner's own, valid until the next call; read it, do not change
   * it — or null when the line must go through `JSON.parse` instead.
   *
   * Lines written by one tracer mostly repeat the keys of a recent line in the same order, and most values too (an
   * open, many writes, a close; in DFTracer's own traces, events after the metadata lines that name their files). The
   * scanner keeps the shapes of the last `SHAPES` lines of different shapes, each with the record of its values, and
   * first reads a line against them (the module's `match`): a member whose bytes (key, value and the separators up to
   * the next key) equal those of the shape's line keeps its field; a member with the same key and another value is
   * read and assigned once the whole line is known to have the shape. Any other difference (another key, another
   * nesting, other separators) sends the line through the general scan, which records its shape in place of the one
   * used least recently. A line with a repeated key is never used as a shape (its first value would be kept where the
   * last one counts), nor is a line longer than `MAX_SHAPE_LINE`; lines that keep fitting no shape are compared with
   * the shapes only now and then.
   *
   * The bytes of a shape's line are not copied when they lie in a `ringBuffer`: the caller must not change bytes it
   * has handed to `scan` there before it calls `release` with their buffer (the reader's line splitter does so before
   * it fills a buffer again).
   */
  scan(b: Buffer, s: number, e: number): DfRecord | null {
    if (b[s] !== 123) return null;
    // first the shape that followed the last line's shape last time, then the others, most recently used first;
    // after MISS_RUN lines in a row that fitted none, only every MISS_RUN-th line tries them (lines of ever new or
    // rotating shapes would otherwise be compared with every shape before their general scan)
    const st = this.st;
    const misses = st[S.MISSES];
    // a line `lines` stopped at after comparing it with every shape is not compared again
    const tried = this.tried;
    this.tried = -1;
    // where the line lies in the module's memory (copied there from another buffer), once asked for
    let at = -2;
    if (misses < MISS_RUN || misses % MISS_RUN === 0) {
      at = this.locate(b, s, e);
      if (at >= 0 && at !== tried) {
        // when it fits, the module has made it the shape's line (and the shape the most recent), and the members
        // whose values differ are assigned to the shape's record
        const slot = this.fast.match(at, at + e - s);
        if (slot >= 0) {
          const sh = this.shapes[slot];
          this.assignChanges(sh, 0, st[S.CHANGES]);
          return sh.rec;
        }
      }
    }
    st[S.MISSES] = misses + 1;
    // the general scan, recording the line's shape in place of the one used least recently
    const slot = st[S.MRU + SHAPES - 1];
    const sh = this.shapes[slot];
    const r = sh.rec;
    st[S.OK + slot] = 0;
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
      if (at === -2) at = this.locate(b, s, e);
      this.fast.keep(slot, at, at + e - s);
      st[S.OK + slot] = 1;
    }
    this.fast.use(slot);
    return r;
  }

  /**
   * Takes the lines of `b[s, e)` (`e` just after a newline) as `scan` would, as many as the module can read against
   * the recent shapes, calling `onRecord` with the record of each that holds an event (and its number: `lineNo` is the
   * number of the first line); sets `run.at` to where the first line it did not take starts (`e` when it took them
   * all) and `run.lines` to the lines it took. A line it does not take (longer than `maxLen` bytes, blank or not; not
   * an object; of another shape) goes to the caller's line path as usual; lines outside the ring buffers are not taken.
   */
  lines(b: Buffer, s: number, e: number, lineNo: number, maxLen: number, run: LineRun, onRecord: (r: DfRecord, lineNo: number) => void): void {
    run.at = s;
    run.lines = 0;
    if (b.buffer !== this.mem.buffer) return;
    const base = b.byteOffset;
    const at = this.fast.batch(base + s, base + e, Math.min(maxLen, 0x7fffffff));
    const st = this.st;
    const n = st[S.OUT];
    const { outShape, outChanges, outLines, shapes } = this;
    let c = 0;
    // the number of the line before the next entry's
    let before = lineNo - 1;
    for (let i = 0; i < n; i++) {
      const sh = shapes[outShape[i]];
      c = this.assignChanges(sh, c, outChanges[i]);
      before += outLines[i];
      onRecord(sh.rec, before);
    }
    this.tried = st[S.TRIED];
    run.at = at - base;
    run.lines = st[S.LINES];
  }

  /** Assigns the `count` changes listed from entry `c` on to `sh`'s record; returns the entry after them. */
  private assignChanges(sh: Shape, c: number, count: number): number {
    const mem = this.mem;
    const end = c + count;
    for (; c < end; c++) {
      const seg = this.chSeg[c];
      this.tokStart = this.chStart[c];
      this.tokEnd = this.chEnd[c];
      this.tokHigh = this.chHigh[c] === 1;
      const kind = this.chKind[c];
      if (kind === 4) {
        // a number the module does not convert (a fraction, an exponent, past 2^53 - 1)
        this.tokNum = Number(mem.toString('latin1', this.tokStart, this.tokEnd));
        this.tokKind = 3;
      } else {
        this.tokNum = this.chNum[c];
        this.tokKind = kind;
      }
      this.assign(mem, sh.rec, sh.key[seg] as K, (sh.flags[seg] & 1) !== 0);
    }
    return c;
  }

  // ---- the shapes of recent lines ----

  /** Lines read against a recent line's shape so far, and comparisons of a line with a shape. */
  get reused(): number {
    return this.st[S.REUSED];
  }

  get tries(): number {
    return this.st[S.TRIES];
  }

  /** Where the line the last `lines` stopped at starts in the module's memory when it fitted no shape, else -1. */
  private tried = -1;

  /** The shapes, by slot. */
  private shapes = Array.from({ length: SHAPES }, (_, i) => new Shape(i, this.mem.buffer, this.at));

  // the members whose values differ from the shape's line, as the module lists them (its memory)
  private chSeg = new Int32Array(this.mem.buffer, this.at.chSeg, this.at.chCap);
  private chKind = new Int32Array(this.mem.buffer, this.at.chKind, this.at.chCap);
  private chHigh = new Int32Array(this.mem.buffer, this.at.chHigh, this.at.chCap);
  private chStart = new Int32Array(this.mem.buffer, this.at.chStart, this.at.chCap);
  private chEnd = new Int32Array(this.mem.buffer, this.at.chEnd, this.at.chCap);
  private chNum = new Float64Array(this.mem.buffer, this.at.chNum, this.at.chCap);
  // the lines a batch took: their shape, the changes listed for them, and the lines up to each
  private outShape = new Int32Array(this.mem.buffer, this.at.outShape, this.at.outCap);
  private outChanges = new Int32Array(this.mem.buffer, this.at.outChanges, this.at.outCap);
  private outLines = new Int32Array(this.mem.buffer, this.at.outLines, this.at.outCap);
  // recording during the general scan
  /** The shape the general scan records the line into. */
  private recorded: Shape = this.shapes[0];
  private lineStart = 0;
  private recording = false;
  /** fields seen so far (bit K), at the top level and inside `args`: a repeated field makes the shape unusable */
  private seen = 0;
  private seenArgs = 0;

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
        if (this.recording) this.recorded.vend[this.recorded.n - 1] = this.pos - this.lineStart;
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

/** The module's state (i32 entries from its `STATE`; wasm/dftracer-fit.ts). */
const enum S {
  /** SHAPES entries each (four: `fitModule` checks) */
  MRU = 0,
  FOLLOW = 4,
  OK = 8,
  MISSES = 12,
  REUSED,
  TRIES,
  OUT,
  LINES,
  TRIED,
  CHANGES,
  END,
}

/**
 * Longest line kept as a shape, or read against one (the size of the module's scratch and copy slots). A shape's
 * line lies in a ring buffer until `release`, else in the shape's own slot.
 */
const MAX_SHAPE_LINE = 64 * 1024;

/** Members of one line a shape holds at most (a longer line is always scanned from scratch). */
const MAX_SEGMENTS = 64;

function sameBytes(a: Uint8Array, b: Uint8Array, s: number, e: number): boolean {
  if (a.length !== e - s) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[s + i]) return false;
  return true;
}
