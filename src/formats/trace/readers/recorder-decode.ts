import { inflateSync } from 'node:zlib';
import { DEFAULT_MAX_INFLATE, InflateBudget } from '../../../util/limits.js';
import { TraceInputError } from '../errors.js';

/** One call signature of a Recorder call-signature table (CST). */
export interface CstEntry {
  terminal: number;
  rank: number;
  count: number;
  tid: bigint;
  funcId: number;
  depth: number;
  args: string[];
}

/** Decodes a serialized CST (`serialize_cst`): int32 n, then per entry terminal, rank, key_len, count, key. */
export function decodeCst(buf: Uint8Array, what: string): CstEntry[] {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.byteLength < 4) throw new TraceInputError(`${what}: truncated call-signature table`);
  const n = dv.getInt32(0, true);
  if (n < 0 || n > buf.byteLength) throw new TraceInputError(`${what}: bad call-signature count ${n}`);
  const out: CstEntry[] = [];
  let p = 4;
  const dec = new TextDecoder('latin1');
  for (let i = 0; i < n; i++) {
    if (p + 16 > buf.byteLength) throw new TraceInputError(`${what}: truncated call-signature table (entry ${i} of ${n})`);
    const terminal = dv.getInt32(p, true);
    const rank = dv.getInt32(p + 4, true);
    const keyLen = dv.getInt32(p + 8, true);
    const count = dv.getUint32(p + 12, true);
    p += 16;
    if (keyLen < 15 || p + keyLen > buf.byteLength) throw new TraceInputError(`${what}: bad call key length ${keyLen} (entry ${i})`);
    const tid = dv.getBigUint64(p, true);
    const funcId = buf[p + 8];
    const depth = buf[p + 9];
    const argc = buf[p + 10];
    const strlen = dv.getInt32(p + 11, true);
    const textLen = Math.min(Math.max(0, strlen), keyLen - 15);
    const text = dec.decode(buf.subarray(p + 15, p + 15 + textLen));
    const parts = text.split(' ');
    if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    const args = argc === 0 ? [] : parts.slice(0, argc);
    out.push({ terminal, rank, count, tid, funcId, depth, args });
    p += keyLen;
  }
  return out;
}

/**
 * A Sequitur grammar (`serialize_grammar`): int32 [nrules, (rule_id, nsymbols, (value, repeat)×nsymbols)×nrules].
 * Symbols are stored flat; a rule reference is stored as -(ruleIndex + 1).
 *
 * Decoding checks the grammar before anything is expanded: rules that refer to themselves (directly or through
 * others) are refused, every rule's expanded length is computed (`calls` is the start rule's, the number of calls
 * the grammar stands for), and the grammar is simplified so that expanding it costs time in proportion to its calls:
 * references to rules that expand to nothing are dropped, and a rule of one symbol is replaced by that symbol
 * wherever it is used (its repeat multiplied in).
 */
export interface Grammar {
  ruleStart: Int32Array;
  ruleLen: Int32Array;
  value: Int32Array;
  /** repeat counts (whole numbers ≥ 1; products of stored counts after simplification, hence floats) */
  repeat: Float64Array;
  /** Index of rule -1 (the start rule). */
  startRule: number;
  /** Calls the start rule expands to (may exceed 2^53 for a hostile grammar: compare, do not count). */
  calls: number;
}

export function decodeGrammar(buf: Uint8Array, what: string): Grammar {
  if (buf.byteLength % 4 !== 0 || buf.byteLength < 4) throw new TraceInputError(`${what}: grammar size is not a multiple of 4 bytes`);
  const ints = new Int32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const nrules = ints[0];
  if (nrules < 0 || nrules > ints.length) throw new TraceInputError(`${what}: bad rule count ${nrules}`);
  const ruleStart = new Int32Array(nrules);
  const ruleLen = new Int32Array(nrules);
  const ids = new Map<number, number>();
  const total = ints.length;
  const value = new Int32Array(total);
  const repeat = new Float64Array(total);
  let p = 1;
  let nsym = 0;
  for (let r = 0; r < nrules; r++) {
    if (p + 2 > total) throw new TraceInputError(`${what}: truncated grammar (rule ${r} of ${nrules})`);
    const id = ints[p];
    const n = ints[p + 1];
    p += 2;
    if (n < 0 || p + 2 * n > total) throw new TraceInputError(`${what}: truncated grammar (rule ${id})`);
    if (id >= 0 || ids.has(id)) throw new TraceInputError(`${what}: bad rule id ${id}`);
    ids.set(id, r);
    ruleStart[r] = nsym;
    ruleLen[r] = n;
    for (let s = 0; s < n; s++) {
      value[nsym] = ints[p];
      const rep = ints[p + 1];
      if (rep < 1) throw new TraceInputError(`${what}: bad repeat count ${rep} in rule ${id}`);
      repeat[nsym] = rep;
      p += 2;
      nsym++;
    }
  }
  for (let i = 0; i < nsym; i++) {
    const v = value[i];
    if (v < 0) {
      const r = ids.get(v);
      if (r === undefined) throw new TraceInputError(`${what}: grammar refers to undefined rule ${v}`);
      value[i] = -(r + 1);
    }
  }
  const startRule = ids.get(-1);
  if (startRule === undefined && nrules > 0) throw new TraceInputError(`${what}: grammar has no start rule`);
  const g: Grammar = { ruleStart, ruleLen, value: value.subarray(0, nsym), repeat: repeat.subarray(0, nsym), startRule: startRule ?? -1, calls: 0 };
  simplify(g, what);
  return g;
}

/** Rules in an order where every rule comes after the rules it refers to; throws on a cycle. */
function bottomUp(g: Grammar, what: string): Int32Array {
  const n = g.ruleLen.length;
  const state = new Uint8Array(n); // 0 new, 1 on the path, 2 done
  const order = new Int32Array(n);
  let k = 0;
  const stackRule = new Int32Array(n);
  const stackPos = new Int32Array(n);
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue;
    let d = 0;
    stackRule[0] = root;
    stackPos[0] = 0;
    state[root] = 1;
    while (d >= 0) {
      const r = stackRule[d];
      const pos = stackPos[d];
      if (pos === g.ruleLen[r]) {
        state[r] = 2;
        order[k++] = r;
        d--;
        continue;
      }
      stackPos[d]++;
      const v = g.value[g.ruleStart[r] + pos];
      if (v >= 0) continue;
      const c = -v - 1;
      if (state[c] === 1) throw new TraceInputError(`${what}: grammar rules refer to themselves (rule cycle)`);
      if (state[c] === 0) {
        state[c] = 1;
        d++;
        stackRule[d] = c;
        stackPos[d] = 0;
      }
    }
  }
  return order;
}

/** See Grammar: computes expanded lengths, drops empty references, inlines one-symbol rules (in place). */
function simplify(g: Grammar, what: string): void {
  const n = g.ruleLen.length;
  const len = new Float64Array(n);
  for (const r of bottomUp(g, what)) {
    // children are final already: rewrite this rule's symbols, then measure it
    let w = g.ruleStart[r];
    const end = g.ruleStart[r] + g.ruleLen[r];
    let sum = 0;
    for (let i = g.ruleStart[r]; i < end; i++) {
      let v = g.value[i];
      let rep = g.repeat[i];
      if (v < 0) {
        const c = -v - 1;
        if (len[c] === 0) continue;
        if (g.ruleLen[c] === 1) {
          // a one-symbol rule: use its symbol directly
          const j = g.ruleStart[c];
          v = g.value[j];
          rep *= g.repeat[j];
        }
      }
      g.value[w] = v;
      g.repeat[w] = rep;
      w++;
      sum += rep * (v >= 0 ? 1 : len[-v - 1]);
    }
    g.ruleLen[r] = w - g.ruleStart[r];
    len[r] = sum;
  }
  g.calls = g.startRule >= 0 ? len[g.startRule] : 0;
}

/**
 * Depth-first expansion of a grammar into terminal ids, produced in batches (bounded memory, no recursion). On a
 * simplified grammar every rule entered yields at least two runs of calls, so the work is linear in the calls.
 */
export class GrammarCursor {
  private stackRule: Int32Array;
  private stackPos: Int32Array;
  private stackRep: Float64Array;
  private depth = 0;

  constructor(private readonly g: Grammar, private readonly what: string) {
    const n = Math.max(1, g.ruleLen.length);
    this.stackRule = new Int32Array(n);
    this.stackPos = new Int32Array(n);
    this.stackRep = new Float64Array(n);
    if (g.startRule >= 0) this.pushRule(g.startRule);
  }

  private pushRule(r: number): void {
    // rules are acyclic (checked when decoding), so the depth never exceeds the number of rules
    if (this.depth === this.stackRule.length) throw new TraceInputError(`${this.what}: grammar nesting deeper than its rules`);
    this.stackRule[this.depth] = r;
    this.stackPos[this.depth] = 0;
    this.stackRep[this.depth] = 0;
    this.depth++;
  }

  /** Fills `out` with the next terminals; returns how many (0 at the end). */
  next(out: Int32Array): number {
    const g = this.g;
    let n = 0;
    while (n < out.length && this.depth > 0) {
      const d = this.depth - 1;
      const r = this.stackRule[d];
      const pos = this.stackPos[d];
      if (pos >= g.ruleLen[r]) {
        this.depth--;
        continue;
      }
      const si = g.ruleStart[r] + pos;
      const v = g.value[si];
      const rep = g.repeat[si];
      if (v >= 0) {
        // terminal repeated `rep` times
        let left = rep - this.stackRep[d];
        const take = Math.min(left, out.length - n);
        out.fill(v, n, n + take);
        n += take;
        left -= take;
        if (left <= 0) {
          this.stackPos[d] = pos + 1;
          this.stackRep[d] = 0;
        } else this.stackRep[d] += take;
      } else {
        // rule reference: expand it once per repetition
        if (this.stackRep[d] >= rep) {
          this.stackPos[d] = pos + 1;
          this.stackRep[d] = 0;
          continue;
        }
        this.stackRep[d]++;
        this.pushRule(-v - 1);
      }
    }
    return n;
  }
}

/** The header of a Recorder zlib block at `off`: uint64 compressed size, uint64 decompressed size. */
export function zlibBlockAt(buf: Uint8Array, off: number, what: string): { csize: number; dsize: number; next: number } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (off + 16 > buf.byteLength) throw new TraceInputError(`${what}: truncated compressed block`);
  const csize = Number(dv.getBigUint64(off, true));
  const dsize = Number(dv.getBigUint64(off + 8, true));
  if (off + 16 + csize > buf.byteLength) throw new TraceInputError(`${what}: truncated compressed block`);
  return { csize, dsize, next: off + 16 + csize };
}

/**
 * Reads a Recorder zlib block at `off` (see zlibBlockAt), inflating at most its declared size and what is left of
 * `budget`: a block that inflates further stops there.
 */
export function readZlibBlock(buf: Uint8Array, off: number, what: string, budget: InflateBudget = new InflateBudget(DEFAULT_MAX_INFLATE, 'trace')): { data: Uint8Array; next: number } {
  const { csize, dsize, next } = zlibBlockAt(buf, off, what);
  if (dsize > budget.left) throw budget.overrun(`${what}: a block declared as ${dsize} bytes`);
  let data: Uint8Array;
  try {
    data = inflateSync(buf.subarray(off + 16, off + 16 + csize), { maxOutputLength: Math.max(1, dsize) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TraceInputError(`${what}: zlib block inflates past its declared ${dsize} bytes`);
    throw new TraceInputError(`${what}: corrupt zlib block (${(err as Error).message})`);
  }
  if (data.byteLength !== dsize) throw new TraceInputError(`${what}: zlib block size ${data.byteLength} ≠ declared ${dsize}`);
  budget.charge(dsize, what);
  return { data, next };
}
