import type { DarshanLog } from './log.js';
import type { DecodeOutcome } from './module-types.js';
import { RECORD_HEAD, segmentBytes, type DxtTable } from './modules/dxt.js';
import { MODULES } from './modules/registry.js';
import { Payload } from './payload.js';
import { inflateOffThread } from './inflate-thread.js';
import { MAX_REGION_BYTES } from './compression.js';

/** How a DXT region is read in batches (tests force streaming and small pieces). */
export interface DxtBatchOptions {
  /** Stream the region even when it is small (default: only regions worth a thread of their own). */
  readonly stream?: boolean;
  /** Bytes per inflated piece (default 1 MiB). */
  readonly chunk?: number;
  /** Inflate on a thread of its own (default true: large regions; 'always': any size; false: never). */
  readonly offThread?: boolean | 'always';
  /** Pieces that thread may inflate ahead of the reader (default 4). */
  readonly ahead?: number;
}

/**
 * Whether a DXT module's region can be read piece by piece: zlib, little-endian, a DXT version the codec knows
 * (otherwise the region is inflated and decoded whole, which handles bzip2, byte swapping and the version error).
 */
export function dxtStreamable(log: DarshanLog, id: number): boolean {
  const codec = MODULES[id]?.codec;
  return (
    log.header.compression === 0 &&
    log.header.byteOrder === 'little' &&
    !!codec &&
    (MODULES[id].name === 'DXT_POSIX' || MODULES[id].name === 'DXT_MPIIO') &&
    codec.versions.includes(log.header.moduleVersions[id])
  );
}

/** Bytes per segment of a streamable DXT module of the log. */
export function dxtSegmentBytes(log: DarshanLog, id: number): number {
  return segmentBytes(MODULES[id].name as 'DXT_POSIX' | 'DXT_MPIIO', log.header.moduleVersions[id]);
}

/** Write segments of the record whose header starts at byte `q` (aligned little-endian views of its bytes). */
export function writesOf(i32: Int32Array, u32: Uint32Array, q: number): number {
  return i32[(q >>> 2) + 23] * 4294967296 + u32[(q >>> 2) + 22];
}

/** Read segments of the record whose header starts at byte `q`. */
function readsOf(i32: Int32Array, u32: Uint32Array, q: number): number {
  return i32[(q >>> 2) + 25] * 4294967296 + u32[(q >>> 2) + 24];
}

/** Segments of the record whose header starts at byte `q`, or -1 when its counts cannot be right. */
export function segmentsOf(i32: Int32Array, u32: Uint32Array, q: number): number {
  const nw = writesOf(i32, u32, q);
  const nr = readsOf(i32, u32, q);
  return nw < 0 || nr < 0 || !Number.isSafeInteger(nw + nr) ? -1 : nw + nr;
}

/**
 * The DXT records of a streamable region, whole, in batches as the region is inflated: every batch but the last
 * holds complete records only (starting 8-byte aligned at its first byte). The last batch is what is left when the
 * region ends, or from a record whose header cannot be right (negative counts, or more segments than a region can
 * hold) on: possibly a record cut short, a damaged header or trailing bytes, for the caller to judge as it would at
 * the end of a whole region.
 * It comes once the whole region is inflated, so a damaged zlib stream or a budget overrun throws instead, as when
 * the whole region is inflated before decoding. A batch is valid until the next one is asked for.
 */
export async function* dxtRecordBatches(log: DarshanLog, id: number, opts: DxtBatchOptions = {}): AsyncGenerator<Uint8Array> {
  const segBytes = dxtSegmentBytes(log, id);
  const chunks = log.regionChunks(id, opts.chunk ?? 1 << 20, opts.offThread ?? true, opts.ahead);
  if (!chunks) return;
  // unread bytes of the region: acc[0, len), the next record at acc[0]
  let acc = new Uint8Array(1 << 21);
  let len = 0;
  let i32 = new Int32Array(acc.buffer);
  let u32 = new Uint32Array(acc.buffer);
  let damaged = false;
  try {
    for await (const piece of chunks) {
      // past a damaged header the rest is still inflated (and dropped): a damaged zlib stream or a budget overrun
      // then fails as it does when the whole region is inflated first
      if (damaged) continue;
      if (len + piece.length > acc.length) {
        const bigger = new Uint8Array(Math.ceil(Math.max(acc.length * 2, len + piece.length) / 8) * 8);
        bigger.set(acc.subarray(0, len));
        acc = bigger;
        i32 = new Int32Array(acc.buffer);
        u32 = new Uint32Array(acc.buffer);
      }
      acc.set(piece, len);
      len += piece.length;
      // the complete records in acc[0, len)
      let q = 0;
      while (len - q >= RECORD_HEAD) {
        const segs = segmentsOf(i32, u32, q);
        // counts no region can hold (it would have to inflate past MAX_REGION_BYTES) are damage too: waiting for
        // their bytes would keep the rest of the region in memory
        if (segs < 0 || segs * segBytes > MAX_REGION_BYTES) {
          damaged = true;
          break;
        }
        const end = q + RECORD_HEAD + segs * segBytes;
        if (end > len) break;
        q = end;
      }
      if (q > 0) {
        yield acc.subarray(0, q);
        acc.copyWithin(0, q, len);
        len -= q;
      }
    }
  } finally {
    // stops the inflating (and its thread) when the caller ends the reading early
    await chunks.return(undefined);
  }
  if (len > 0) yield acc.subarray(0, len);
}

/**
 * A DXT module's records as decoded tables: the whole region at once (`log.decode`), or, for a streamable region
 * worth streaming, one table per batch of records as the region is inflated, so that memory holds one batch and
 * decoding overlaps inflating. The tables together hold the same records as `log.decode`'s, and the first error
 * (on the last table) is the same; a damaged zlib stream or a budget overrun throws as `log.decode` does, after the
 * batches before it. Yields nothing when the module has no data.
 */
export async function* dxtTables(log: DarshanLog, id: number, opts: DxtBatchOptions = {}): AsyncGenerator<DecodeOutcome<DxtTable>> {
  const region = log.header.moduleRegions[id];
  if (region.len === 0) return;
  if (!dxtStreamable(log, id) || !(opts.stream || inflateOffThread(region.len))) {
    const whole = log.decode<DxtTable>(id);
    if (whole) yield whole;
    return;
  }
  for await (const batch of dxtRecordBatches(log, id, opts)) {
    const out = decodeDxtBatch(log, id, batch);
    if (out.error) log.noteStreamed(id, out.error);
    yield out;
    if (out.error) return;
  }
  log.noteStreamed(id, null);
}

/** A batch of whole records of a streamable DXT region (`dxtRecordBatches`) decoded as a table, with the error that stopped it. */
export function decodeDxtBatch(log: DarshanLog, id: number, batch: Uint8Array): DecodeOutcome<DxtTable> {
  const ctx = { version: log.header.moduleVersions[id], byteOrder: log.header.byteOrder, moduleVersions: log.header.moduleVersions };
  return MODULES[id].codec!.decode(new Payload(batch, true), ctx) as DecodeOutcome<DxtTable>;
}

/**
 * What else is made of a DXT region while a reader streams it (the facts that read DXT segments), so that the region
 * is inflated once: the reader reads `log` (instead of opening the file again) and hands over every batch of whole
 * records before turning it into events, then says when it is done with the module.
 */
export interface DxtRecordTap {
  readonly log: DarshanLog;
  /** A batch of whole records of module `id` (valid during the call only). */
  batch(id: number, records: Uint8Array): void;
  /** The reader is done with module `id`'s region: at its end, or at the record it stopped at. */
  end(id: number): void;
}
