import { Int64Block } from '../int64-block.js';
import { FixedTable } from './fixed-table.js';

export { FixedTable, type RawRecords } from './fixed-table.js';
import type { Payload } from '../payload.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, NameResolver, RecordSink } from '../module-types.js';
import { cF6 } from '../../../util/cfmt.js';

/** One stored version of a fixed-size counter record. */
export interface FixedLayout {
  readonly recordSize: number | string;
  readonly ints: readonly string[];
  readonly floats: readonly string[];
  /**
   * For old versions: the current counters whose value does not come from the old counter of the same name, each
   * with the old counter it comes from, a sum `A + B`, or a constant the reader fills in.
   */
  readonly upgrade?: {
    readonly ints: Readonly<Record<string, UpgradeSource>>;
    readonly floats: Readonly<Record<string, UpgradeSource>>;
  };
}

/** Where an up-converted counter's value comes from. */
export type UpgradeSource = string | { readonly const: number };

/** The three text columns after the counter value. */
export interface RecordColumns {
  file: string;
  mount: string;
  fs: string;
}

/** Declarative description of a fixed-record module; `defineFixedCodec` turns it into a codec. */
export interface FixedCodecSpec<I extends string, F extends string> {
  readonly id: number;
  readonly name: string;
  readonly currentVersion: number;
  readonly intNames: readonly I[];
  readonly floatNames: readonly F[];
  readonly layouts: Readonly<Record<number, FixedLayout>>;
  /** Bytes between the base record and the counters, per stored version; `fileRecId` marks a u64 file record id. */
  readonly head?: (version: number) => { bytes: number; fileRecId: boolean };
  /** Name of the printed file-record-id line (H5D, PNETCDF_VAR). */
  readonly fileRecIdName?: string;
  /** Bytes after the floats in the current version (DFS/DAOS object identifiers). */
  readonly tailBytes?: number;
  /** Int counters printed unsigned. */
  readonly unsignedInts?: readonly I[];
  /** File-name column when the id has no name (darshan-parser prints `(null)`). */
  readonly missingName?: string;
  /** Drops records of the given stored versions before decoding (POSIX v1 stdio records). */
  readonly keepRecord?: { readonly versions: readonly number[]; test(p: Payload, base: number, ctx: DecodeContext): boolean };
  /** Old-version float counters that darshan-util leaves unswapped on big-endian logs. */
  readonly unswappedFloats?: (ctx: DecodeContext) => readonly string[];
  /** Whether the file record id is left unswapped on big-endian logs. */
  readonly unswappedFileRecId?: (ctx: DecodeContext) => boolean;
  /** Puts the trailing bytes of a big-endian record into the little-endian form the table keeps. */
  readonly swapTail?: (tail: Uint8Array) => void;
  /** Overrides the name/mount/fs columns (DFS, DAOS). */
  readonly columns?: (t: FixedTable<I, F>, row: number, names: NameResolver) => RecordColumns;
}

const noHead = () => ({ bytes: 0, fileRecId: false });

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Builds the codec of a fixed-record module from its spec. */
export function defineFixedCodec<I extends string, F extends string>(spec: FixedCodecSpec<I, F>): ModuleCodec<FixedTable<I, F>> & {
  readonly spec: FixedCodecSpec<I, F>;
} {
  const versions = Object.keys(spec.layouts).map(Number).sort((a, b) => a - b);
  const head = spec.head ?? noHead;
  for (const v of versions) {
    const L = spec.layouts[v];
    const tail = v === spec.currentVersion ? (spec.tailBytes ?? 0) : 0;
    const expect = 16 + head(v).bytes + 8 * (L.ints.length + L.floats.length) + tail;
    if (L.recordSize !== expect) throw new Error(`${spec.name} v${v}: record size ${L.recordSize} != ${expect}`);
  }
  const unsigned = new Set<string>(spec.unsignedInts ?? []);

  function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<FixedTable<I, F>> {
    const v = ctx.version;
    const L = spec.layouts[v];
    const S = L.recordSize as number;
    const h = head(v);
    const tailBytes = v === spec.currentVersion ? (spec.tailBytes ?? 0) : 0;
    const total = Math.floor(p.length / S);
    let bases: number[] | null = null;
    if (spec.keepRecord && spec.keepRecord.versions.includes(v)) {
      bases = [];
      for (let r = 0; r < total; r++) if (spec.keepRecord.test(p, r * S, ctx)) bases.push(r * S);
    }
    const n = bases ? bases.length : total;
    const ids = new BigUint64Array(n);
    const ranks = new Int64Block(n, 1);
    const nI = L.ints.length;
    const nF = L.floats.length;
    const ints = new Int64Block(n, nI);
    const floats = new Float64Array(n * nF);
    const fileRecIds = h.fileRecId ? new BigUint64Array(n) : null;
    const tail = tailBytes ? new Uint8Array(n * tailBytes) : null;
    const intOff = 16 + h.bytes;
    const floatOff = intOff + 8 * L.ints.length;
    // Same counters as the current version (v4 POSIX, or H5D v1 / BG/Q v1 whose change is only before the counters).
    const sameCounters = v === spec.currentVersion || (sameList(L.ints, spec.intNames) && sameList(L.floats, spec.floatNames) && !(spec.tailBytes ?? 0));
    if (sameCounters && p.little && p.i32 !== null && !bases) {
      // Fast path: only ids, ranks and extras now; counters stay in the payload until a column is asked for.
      const ids = new BigUint64Array(total);
      const ranks = new Int64Block(total, 1);
      const fileRecIds = h.fileRecId || spec.fileRecIdName ? new BigUint64Array(total) : null;
      const tail = tailBytes ? new Uint8Array(total * tailBytes) : null;
      const tailOff = floatOff + 8 * L.floats.length;
      for (let r = 0; r < total; r++) {
        const base = r * S;
        ids[r] = p.u64(base);
        p.i64Into(ranks, 0, r, base + 8);
        if (fileRecIds && h.fileRecId) fileRecIds[r] = p.u64(base + 16);
        if (tail) tail.set(p.bytes.subarray(base + tailOff, base + tailOff + tailBytes), r * tailBytes);
      }
      const t = new FixedTable<I, F>(spec.name, spec.id, v, total, ids, ranks, spec.intNames, spec.floatNames,
        new Int64Block(total, L.ints.length), new Float64Array(total * L.floats.length), fileRecIds, tail,
        { p, stride: S, intOff, floatOff });
      return { table: t, error: null };
    }
    const leFloats = ctx.byteOrder === 'big' && spec.unswappedFloats ? new Set(spec.unswappedFloats(ctx)) : null;
    const leRecId = ctx.byteOrder === 'big' && spec.unswappedFileRecId ? spec.unswappedFileRecId(ctx) : false;
    const fast = p.little && p.i32 !== null;
    const i32 = p.i32!;
    const u32 = p.u32!;
    const f64 = p.f64!;
    const data = ints.data;
    for (let r = 0; r < n; r++) {
      const base = bases ? bases[r] : r * S;
      ids[r] = p.u64(base);
      p.i64Into(ranks, 0, r, base + 8);
      if (fileRecIds) fileRecIds[r] = leRecId ? p.u64LE(base + 16) : p.u64(base + 16);
      if (fast) {
        let w = (base + intOff) >>> 2;
        for (let c = 0; c < nI; c++, w += 2) {
          const hi = i32[w + 1];
          if (hi > 2097151 || hi < -2097152) ints.setHiLo(c, r, hi, u32[w]);
          else data[c * n + r] = hi * 4294967296 + u32[w];
        }
        let fw = (base + floatOff) >>> 3;
        for (let c = 0; c < nF; c++, fw++) floats[c * n + r] = f64[fw];
      } else {
        for (let c = 0; c < nI; c++) p.i64Into(ints, c, r, base + intOff + 8 * c);
        for (let c = 0; c < nF; c++) {
          const off = base + floatOff + 8 * c;
          floats[c * n + r] = leFloats?.has(L.floats[c]) ? p.f64LE(off) : p.f64At(off);
        }
      }
      if (tail) {
        tail.set(p.bytes.subarray(base + floatOff + 8 * nF, base + floatOff + 8 * nF + tailBytes), r * tailBytes);
        if (!p.little && spec.swapTail) spec.swapTail(tail.subarray(r * tailBytes, (r + 1) * tailBytes));
      }
    }
    if (v === spec.currentVersion) {
      const t = new FixedTable<I, F>(spec.name, spec.id, v, n, ids, ranks, spec.intNames, spec.floatNames, ints, floats, fileRecIds, tail);
      return { table: t, error: null };
    }
    return { table: upgrade(v, L, n, ids, ranks, ints, floats, fileRecIds), error: null };
  }

  /** Maps an old-version table onto the current counters, by name. */
  function upgrade(v: number, L: FixedLayout, n: number, ids: BigUint64Array, ranks: Int64Block, oldInts: Int64Block, oldFloats: Float64Array, fileRecIds: BigUint64Array | null): FixedTable<I, F> {
    const up = L.upgrade;
    // Counters the map does not name come from the old counter of the same name.
    const ints = new Int64Block(n, spec.intNames.length);
    const floats = new Float64Array(n * spec.floatNames.length);
    const oldI = new Map(L.ints.map((x, i) => [x, i]));
    const oldF = new Map(L.floats.map((x, i) => [x, i]));
    spec.intNames.forEach((name, c) => {
      const src = up?.ints[name] ?? name;
      if (typeof src === 'object') ints.fillColumn(c, src.const);
      else if (src.includes(' + ')) {
        const [a, b] = src.split(' + ').map((s) => oldI.get(s)!);
        for (let r = 0; r < n; r++) ints.setExact(c, r, BigInt.asIntN(64, oldInts.exact(a, r) + oldInts.exact(b, r)));
      } else {
        const s = oldI.get(src);
        if (s === undefined) throw new Error(`${spec.name} v${v}: no counter ${src}`);
        ints.copyColumn(c, oldInts, s);
      }
    });
    spec.floatNames.forEach((name, c) => {
      const src = up?.floats[name] ?? name;
      if (typeof src === 'object') floats.fill(src.const, c * n, (c + 1) * n);
      else {
        const s = oldF.get(src);
        if (s === undefined) throw new Error(`${spec.name} v${v}: no counter ${src}`);
        floats.set(oldFloats.subarray(s * n, (s + 1) * n), c * n);
      }
    });
    const recIds = spec.fileRecIdName ? (fileRecIds ?? new BigUint64Array(n)) : null;
    const tail = spec.tailBytes ? new Uint8Array(n * spec.tailBytes) : null;
    return new FixedTable<I, F>(spec.name, spec.id, v, n, ids, ranks, spec.intNames, spec.floatNames, ints, floats, recIds, tail);
  }

  function print(t: FixedTable<I, F>, sink: RecordSink, names: NameResolver): void {
    const n = t.length;
    const nI = t.intNames.length;
    const nF = t.floatNames.length;
    const unsignedCols = t.intNames.map((x) => unsigned.has(x));
    const intKeys = sink.prepare(t.intNames);
    const floatKeys = sink.prepare(t.floatNames);
    const raw = t.raw;
    const ri32 = raw?.p.i32;
    const ru32 = raw?.p.u32;
    const rf64 = raw?.p.f64;
    const ints = raw ? null : t.ints;
    const floats = raw ? null : t.floats;
    for (let r = 0; r < n; r++) {
      let cols: RecordColumns;
      if (spec.columns) cols = spec.columns(t, r, names);
      else {
        const name = names.name(t.ids[r]);
        const m = names.mount(name);
        cols = { file: name ?? spec.missingName ?? '(null)', mount: m ? m.path : 'UNKNOWN', fs: m ? m.fsType : 'UNKNOWN' };
      }
      sink.record(spec.name, t.ranks.text(0, r), t.ids[r].toString(), cols.file, cols.mount, cols.fs);
      if (raw && sink.rawCounters) {
        sink.rawCounters(intKeys, unsignedCols, ri32!, ru32!, (r * raw.stride + raw.intOff) >>> 2, floatKeys, rf64!, (r * raw.stride + raw.floatOff) >>> 3);
      } else if (raw) {
        // Straight from the record bytes, in storage order.
        let w = (r * raw.stride + raw.intOff) >>> 2;
        for (let c = 0; c < nI; c++, w += 2) {
          const hi = ri32![w + 1];
          const lo = ru32![w];
          if (hi <= 2097151 && hi >= (unsignedCols[c] ? 0 : -2097152)) sink.counterIntPrepared(intKeys[c], hi * 4294967296 + lo);
          else {
            const big = (BigInt(hi) << 32n) | BigInt(lo);
            sink.counterPrepared(intKeys[c], (unsignedCols[c] ? BigInt.asUintN(64, big) : big).toString());
          }
        }
        let fw = (r * raw.stride + raw.floatOff) >>> 3;
        for (let c = 0; c < nF; c++, fw++) sink.counterPrepared(floatKeys[c], cF6(rf64![fw]));
      } else {
        const data = ints!.data;
        for (let c = 0; c < nI; c++) {
          const v = data[c * n + r];
          if (unsignedCols[c] ? v >= 0 && ints!.isExact(c, r) : ints!.isExact(c, r)) sink.counterIntPrepared(intKeys[c], v);
          else sink.counterPrepared(intKeys[c], unsignedCols[c] ? ints!.unsignedText(c, r) : ints!.text(c, r));
        }
        for (let c = 0; c < nF; c++) sink.counterPrepared(floatKeys[c], cF6(floats![c * n + r]));
      }
      if (spec.fileRecIdName && t.fileRecIds) sink.counter(spec.fileRecIdName, t.fileRecIds[r].toString());
    }
  }

  function encode(t: FixedTable<I, F>): Uint8Array {
    const h = head(spec.currentVersion);
    const S = spec.layouts[spec.currentVersion].recordSize as number;
    const out = new Uint8Array(S * t.length);
    const dv = new DataView(out.buffer);
    const nI = t.intNames.length;
    const nF = t.floatNames.length;
    for (let r = 0; r < t.length; r++) {
      const base = r * S;
      dv.setBigUint64(base, t.ids[r], true);
      dv.setBigInt64(base + 8, t.ranks.exact(0, r), true);
      if (h.fileRecId) dv.setBigUint64(base + 16, t.fileRecIds ? t.fileRecIds[r] : 0n, true);
      let off = base + 16 + h.bytes;
      for (let c = 0; c < nI; c++, off += 8) {
        if (t.ints.isExact(c, r)) {
          const v = t.ints.data[c * t.length + r];
          const hi = Math.floor(v / 4294967296);
          dv.setUint32(off, v - hi * 4294967296, true);
          dv.setInt32(off + 4, hi, true);
        } else dv.setBigInt64(off, BigInt.asIntN(64, t.ints.exact(c, r)), true);
      }
      for (let c = 0; c < nF; c++, off += 8) dv.setFloat64(off, t.floats[c * t.length + r], true);
      if (t.tail && spec.tailBytes) out.set(t.tail.subarray(r * spec.tailBytes, (r + 1) * spec.tailBytes), off);
    }
    return out;
  }

  function recordJson(t: FixedTable<I, F>, r: number): Record<string, unknown> {
    const counters: Record<string, number | string> = {};
    t.intNames.forEach((name, c) => (counters[name] = unsigned.has(name) ? t.ints.unsignedText(c, r) : t.ints.json(c, r)));
    const fcounters: Record<string, number | null> = {};
    t.floatNames.forEach((name, c) => {
      const v = t.floats[c * t.length + r];
      fcounters[name] = Number.isFinite(v) ? v : null;
    });
    const out: Record<string, unknown> = { counters, fcounters };
    if (spec.fileRecIdName && t.fileRecIds) out[spec.fileRecIdName] = t.fileRecIds[r].toString();
    if (t.tail) out.trailer = Buffer.from(t.tail.subarray(r * spec.tailBytes!, (r + 1) * spec.tailBytes!)).toString('hex');
    return out;
  }

  return { id: spec.id, name: spec.name, currentVersion: spec.currentVersion, versions, decode, print, encode, recordJson, spec };
}
