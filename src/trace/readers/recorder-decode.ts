import { inflateSync } from 'node:zlib';
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
 */
export interface Grammar {
  ruleStart: Int32Array;
  ruleLen: Int32Array;
  value: Int32Array;
  repeat: Int32Array;
  /** Index of rule -1 (the start rule). */
  startRule: number;
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
  const repeat = new Int32Array(total);
  let p = 1;
  let nsym = 0;
  for (let r = 0; r < nrules; r++) {
    if (p + 2 > total) throw new TraceInputError(`${what}: truncated grammar (rule ${r} of ${nrules})`);
    const id = ints[p];
    const n = ints[p + 1];
    p += 2;
    if (n < 0 || p + 2 * n > total) throw new TraceInputError(`${what}: truncated grammar (rule ${id})`);
    ids.set(id, r);
    ruleStart[r] = nsym;
    ruleLen[r] = n;
    for (let s = 0; s < n; s++) {
      value[nsym] = ints[p];
      repeat[nsym] = ints[p + 1];
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
  return { ruleStart, ruleLen, value: value.subarray(0, nsym), repeat: repeat.subarray(0, nsym), startRule: startRule ?? -1 };
}

/** Depth-first expansion of a grammar into terminal ids, produced in batches (bounded memory, no recursion). */
export class GrammarCursor {
  private stackRule: Int32Array;
  private stackPos: Int32Array;
  private stackRep: Int32Array;
  private depth = 0;

  constructor(private readonly g: Grammar, private readonly what: string) {
    this.stackRule = new Int32Array(64);
    this.stackPos = new Int32Array(64);
    this.stackRep = new Int32Array(64);
    if (g.startRule >= 0) this.pushRule(g.startRule);
  }

  private pushRule(r: number): void {
    if (this.depth === this.stackRule.length) {
      if (this.depth > 1 << 20) throw new TraceInputError(`${this.what}: grammar nesting too deep (cyclic rules?)`);
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.stackRule = grow(this.stackRule);
      this.stackPos = grow(this.stackPos);
      this.stackRep = grow(this.stackRep);
    }
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

/** Reads a Recorder zlib block at `off`: uint64 compressed size, uint64 decompressed size, zlib stream. */
export function readZlibBlock(buf: Uint8Array, off: number, what: string): { data: Uint8Array; next: number } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (off + 16 > buf.byteLength) throw new TraceInputError(`${what}: truncated compressed block`);
  const csize = Number(dv.getBigUint64(off, true));
  const dsize = Number(dv.getBigUint64(off + 8, true));
  if (off + 16 + csize > buf.byteLength) throw new TraceInputError(`${what}: truncated compressed block`);
  let data: Uint8Array;
  try {
    data = inflateSync(buf.subarray(off + 16, off + 16 + csize));
  } catch (err) {
    throw new TraceInputError(`${what}: corrupt zlib block (${(err as Error).message})`);
  }
  if (data.byteLength !== dsize) throw new TraceInputError(`${what}: zlib block size ${data.byteLength} ≠ declared ${dsize}`);
  return { data, next: off + 16 + csize };
}
