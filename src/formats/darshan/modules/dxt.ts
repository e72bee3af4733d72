import { Int64Block } from '../int64-block.js';
import type { DecodeContext, DecodeOutcome, ModuleCodec, ModuleTable } from '../module-types.js';
import type { Payload } from '../payload.js';

/** Bytes of a DXT record before its segments. */
export const RECORD_HEAD = 104;

/**
 * DXT trace records (one per file × rank) with their segments held columnar. A record's segments are
 * `segStart[r] .. segStart[r] + writeCount[r] + readCount[r]`: its writes first, then its reads, as stored.
 */
export interface DxtTable extends ModuleTable {
  readonly kind: 'dxt';
  readonly hostnames: readonly string[];
  readonly writeCount: Float64Array;
  readonly readCount: Float64Array;
  readonly segStart: Float64Array;
  /** Total segments over all records. */
  readonly segments: number;
  /** Segment columns: 0 offset, 1 length (exact i64). MPI-IO v1 offsets are -1 (not recorded). */
  readonly offsetLength: Int64Block;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** pthread ids (unsigned; present when `hasThreadIds`). */
  readonly threadIds: Int64Block | null;
  readonly hasThreadIds: boolean;
}

/** Segment size per stored version: 40 bytes with a pthread id, 32 without. */
export function segmentBytes(module: 'DXT_POSIX' | 'DXT_MPIIO', version: number): number {
  return (module === 'DXT_POSIX' ? version >= 2 : version >= 3) ? 40 : 32;
}

function makeCodec(id: number, name: 'DXT_POSIX' | 'DXT_MPIIO', versions: number[]): ModuleCodec<DxtTable> {
  function decode(p: Payload, ctx: DecodeContext): DecodeOutcome<DxtTable> {
    const segBytes = segmentBytes(name, ctx.version);
    // Pass 1: count records and segments, validating lengths before anything is allocated.
    let off = 0;
    let nRec = 0;
    let nSeg = 0;
    let error: string | null = null;
    while (p.length - off >= RECORD_HEAD) {
      const w = p.i64(off + 88);
      const r = p.i64(off + 96);
      const segs = w + r;
      if (w < 0 || r < 0 || !Number.isSafeInteger(segs) || segs * segBytes > p.length - off - RECORD_HEAD) {
        error = `${name} record's segments extend past the end of its region`;
        break;
      }
      nRec++;
      nSeg += segs;
      off += RECORD_HEAD + segs * segBytes;
    }
    const ids = new BigUint64Array(nRec);
    const ranks = new Int64Block(nRec, 1);
    const hostnames: string[] = new Array(nRec);
    const writeCount = new Float64Array(nRec);
    const readCount = new Float64Array(nRec);
    const segStart = new Float64Array(nRec);
    const offsetLength = new Int64Block(nSeg, 2);
    const start = new Float64Array(nSeg);
    const end = new Float64Array(nSeg);
    const threads = segBytes === 40 ? new Int64Block(nSeg, 1) : null;
    const noOffsets = name === 'DXT_MPIIO' && ctx.version === 1;
    const fast = p.little && p.f64 !== null;
    const ol = offsetLength.data;
    const i32 = p.i32!;
    const u32 = p.u32!;
    const f64 = p.f64!;
    off = 0;
    let s = 0;
    for (let r = 0; r < nRec; r++) {
      ids[r] = p.u64(off);
      p.i64Into(ranks, 0, r, off + 8);
      const host = p.bytes.subarray(off + 24, off + 88);
      const nul = host.indexOf(0);
      hostnames[r] = Buffer.from(nul < 0 ? host : host.subarray(0, nul)).toString('latin1');
      const w = p.i64(off + 88);
      const rd = p.i64(off + 96);
      writeCount[r] = w;
      readCount[r] = rd;
      segStart[r] = s;
      let so = off + RECORD_HEAD;
      for (let k = 0; k < w + rd; k++, s++, so += segBytes) {
        if (fast) {
          const wi = so >>> 2;
          const hiO = i32[wi + 1];
          const hiL = i32[wi + 3];
          if (hiO > 2097151 || hiO < -2097152) offsetLength.setHiLo(0, s, hiO, u32[wi]);
          else ol[s] = hiO * 4294967296 + u32[wi];
          if (hiL > 2097151 || hiL < -2097152) offsetLength.setHiLo(1, s, hiL, u32[wi + 2]);
          else ol[nSeg + s] = hiL * 4294967296 + u32[wi + 2];
          start[s] = f64[(so >>> 3) + 2];
          end[s] = f64[(so >>> 3) + 3];
          if (threads) threads.setHiLo(0, s, i32[wi + 9], u32[wi + 8]);
        } else {
          p.i64Into(offsetLength, 0, s, so);
          p.i64Into(offsetLength, 1, s, so + 8);
          start[s] = p.f64At(so + 16);
          end[s] = p.f64At(so + 24);
          // pthread ids are never byte-swapped by darshan-util.
          if (threads) threads.setHiLo(0, s, p.view.getInt32(so + 36, true), p.view.getUint32(so + 32, true));
        }
        if (noOffsets) offsetLength.setHiLo(0, s, -1, 4294967295);
      }
      off = so;
    }
    const table: DxtTable = {
      kind: 'dxt', module: name, moduleId: id, version: ctx.version, length: nRec, ids, ranks, hostnames,
      writeCount, readCount, segStart, segments: nSeg, offsetLength, start, end, threadIds: threads, hasThreadIds: threads !== null,
    };
    return { table, error };
  }

  function encode(t: DxtTable): Uint8Array {
    const segBytes = t.hasThreadIds ? 40 : 32;
    const out = Buffer.alloc(t.length * RECORD_HEAD + t.segments * segBytes);
    let off = 0;
    for (let r = 0; r < t.length; r++) {
      out.writeBigUInt64LE(t.ids[r], off);
      out.writeBigInt64LE(t.ranks.exact(0, r), off + 8);
      out.writeBigInt64LE(t.ranks.exact(0, r) === -1n ? 1n : 0n, off + 16);
      out.write(t.hostnames[r].slice(0, 63), off + 24, 'latin1');
      out.writeBigInt64LE(BigInt(t.writeCount[r]), off + 88);
      out.writeBigInt64LE(BigInt(t.readCount[r]), off + 96);
      off += RECORD_HEAD;
      const s0 = t.segStart[r];
      for (let k = 0; k < t.writeCount[r] + t.readCount[r]; k++, off += segBytes) {
        const s = s0 + k;
        out.writeBigInt64LE(t.offsetLength.exact(0, s), off);
        out.writeBigInt64LE(t.offsetLength.exact(1, s), off + 8);
        out.writeDoubleLE(t.start[s], off + 16);
        out.writeDoubleLE(t.end[s], off + 24);
        if (t.threadIds) out.writeBigInt64LE(t.threadIds.exact(0, s), off + 32);
      }
    }
    return out;
  }

  function recordJson(t: DxtTable, r: number): Record<string, unknown> {
    const segments = [];
    const w = t.writeCount[r];
    const n = w + t.readCount[r];
    for (let k = 0; k < n; k++) {
      const s = t.segStart[r] + k;
      const seg: Record<string, unknown> = { op: k < w ? 'write' : 'read', offset: t.offsetLength.json(0, s), length: t.offsetLength.json(1, s), start: t.start[s], end: t.end[s] };
      if (t.threadIds) seg.thread = t.threadIds.unsignedText(0, s);
      segments.push(seg);
    }
    return { hostname: t.hostnames[r], writeCount: w, readCount: t.readCount[r], segments };
  }

  const encodeVersion = (t: DxtTable) => (t.hasThreadIds ? versions[versions.length - 1] : versions[versions.length - 2]);
  return { id, name, currentVersion: versions[versions.length - 1], versions, decode, encode, encodeVersion, recordJson };
}

export const dxtPosix = makeCodec(10, 'DXT_POSIX', [1, 2]);
export const dxtMpiio = makeCodec(11, 'DXT_MPIIO', [1, 2, 3]);
