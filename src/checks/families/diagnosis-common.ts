import type { FactName, FactValues } from '../../facts/types.js';
import type { IoOp, Subject } from '../../contract/index.js';
import { fileSeconds, type TimeModel } from '../../facts/time-model.js';

/** What the diagnosis checks need from a check context (any `CheckContext` satisfies it). */
export interface DiagnosisContext {
  tryFact<K extends FactName>(name: K): FactValues[K] | null;
  file(id: bigint, rank?: number): Subject;
}

/** The display name of a subject (file name, or '' for non-file subjects). */
export function subjectName(s: Subject): string {
  return s.kind === 'file' ? s.name : '';
}

/**
 * Seconds the job spent in I/O calls at the POSIX and STDIO layers (read + write + metadata, summed over ranks):
 * the denominator of time-based costs. MPI-IO time is left out because it contains the POSIX time of its calls.
 */
export function jobIoSeconds(ctx: DiagnosisContext): number {
  let s = 0;
  const p = ctx.tryFact('posix.files');
  if (p) for (let i = 0; i < p.ids.length; i++) s += Math.max(0, p.readTime[i]) + Math.max(0, p.writeTime[i]) + Math.max(0, p.metaTime[i]);
  const f = ctx.tryFact('stdio.files');
  if (f) for (let i = 0; i < f.ids.length; i++) s += Math.max(0, f.readTime[i]) + Math.max(0, f.writeTime[i]) + Math.max(0, f.metaTime[i]);
  return s;
}

/** Bytes the job moved at the POSIX and STDIO layers (standard streams left out). */
export function jobBytes(ctx: DiagnosisContext): number {
  let s = 0;
  const p = ctx.tryFact('posix.files');
  if (p) for (let i = 0; i < p.ids.length; i++) s += Math.max(0, p.bytesRead[i]) + Math.max(0, p.bytesWritten[i]);
  const f = ctx.tryFact('stdio.files');
  if (f) for (let i = 0; i < f.ids.length; i++) s += Math.max(0, f.bytesRead[i]) + Math.max(0, f.bytesWritten[i]);
  return s;
}

const indexCache = new WeakMap<BigUint64Array, ReadonlyMap<bigint, number>>();

/**
 * Index of each id of `ids` for lookups across facts; built once per id column (a dozen checks look up the same
 * facts' ids: on a 50,000-file log, building a Map per check cost ~30 ms). The joins below use it only for columns
 * whose ids are not ascending.
 */
export function indexOf(ids: BigUint64Array): ReadonlyMap<bigint, number> {
  let m = indexCache.get(ids);
  if (!m) {
    const built = new Map<bigint, number>();
    for (let i = 0; i < ids.length; i++) built.set(ids[i], i);
    indexCache.set(ids, (m = built));
  }
  return m;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const ascendingCache = new WeakMap<BigUint64Array, boolean>();

/**
 * Whether the ids are strictly ascending as unsigned 64-bit integers (facts grouped by id give them so; then they
 * are also distinct). Compared on their 32-bit halves, without a BigInt per id; checked once per column.
 */
export function idsAscending(ids: BigUint64Array): boolean {
  let a = ascendingCache.get(ids);
  if (a === undefined) {
    const u = new Uint32Array(ids.buffer, ids.byteOffset, ids.length * 2);
    const lo = LITTLE_ENDIAN ? 0 : 1, hi = 1 - lo;
    a = true;
    for (let i = 2; i < u.length; i += 2) {
      const ph = u[i - 2 + hi], ch = u[i + hi];
      if (ph > ch || (ph === ch && u[i - 2 + lo] >= u[i + lo])) {
        a = false;
        break;
      }
    }
    ascendingCache.set(ids, a);
  }
  return a;
}

/** The row of `id` in strictly ascending `ids` (binary search), or −1. */
function search(ids: BigUint64Array, id: bigint): number {
  let lo = 0, hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid];
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Whether binary searches for `few` ids among `many` ascending ids (~16 ids read each, for the 50,000-file columns
 * this is made for) cost less than indexing all `many` once.
 */
function fewEnough(few: number, many: number): boolean {
  return few * 16 <= many;
}

/**
 * A lookup of rows of `ids` by id (−1 when absent; the last such row when an id repeats). For ascending ids, the
 * first lookups are binary searches and the shared index is built only once they would cost more: a check asking
 * for a few ids (its streams, its MPI-IO files) does not hash every id of a 50,000-file column.
 */
export function rowOf(ids: BigUint64Array): (id: bigint) => number {
  let index = idsAscending(ids) ? null : indexOf(ids);
  let searches = 0;
  return (id) => {
    if (index === null && fewEnough(++searches, ids.length)) return search(ids, id);
    index ??= indexOf(ids);
    return index.get(id) ?? -1;
  };
}

const joinCache = new WeakMap<BigUint64Array, WeakMap<BigUint64Array, Int32Array>>();

/**
 * For each row of `from`, the row of `into` holding the same id, or −1 (the last such row when an id repeats in
 * `into`): how checks join facts of two layers (a POSIX file to its MPI-IO or STDIO row). Computed once per pair of
 * columns. When `from` is ascending and `into` has few ids, only those are searched in `from`: a 50,000-file POSIX
 * column joined to 100 MPI-IO files costs 100 binary searches, not 50,000 hashed BigInts; otherwise every id of
 * `from` is looked up through `rowOf(into)`.
 */
export function rowsIn(from: BigUint64Array, into: BigUint64Array): Int32Array {
  let byInto = joinCache.get(from);
  if (!byInto) joinCache.set(from, (byInto = new WeakMap()));
  let out = byInto.get(into);
  if (out) return out;
  out = new Int32Array(from.length).fill(-1);
  if (fewEnough(into.length, from.length) && idsAscending(from)) {
    // Ascending `from` holds each id once; later rows of `into` overwrite earlier ones, as the index does.
    for (let j = 0; j < into.length; j++) {
      const i = search(from, into[j]);
      if (i >= 0) out[i] = j;
    }
  } else {
    const find = rowOf(into);
    for (let i = 0; i < from.length; i++) out[i] = find(from[i]);
  }
  byInto.set(into, out);
  return out;
}

/**
 * Which rows of `ids` hold one of `wanted` (ids absent from the column are ignored): a mask over the column built
 * from the few wanted ids, instead of a set lookup per row.
 */
export function rowsHolding(ids: BigUint64Array, wanted: Iterable<bigint>): Uint8Array {
  const mask = new Uint8Array(ids.length);
  const list = [...wanted];
  if (fewEnough(list.length, ids.length) && idsAscending(ids)) {
    for (const id of list) {
      const i = search(ids, id);
      if (i >= 0) mask[i] = 1;
    }
  } else {
    const set = new Set(list);
    if (set.size) for (let i = 0; i < ids.length; i++) if (set.has(ids[i])) mask[i] = 1;
  }
  return mask;
}

/**
 * Whether `ids` holds `id` in a row `where` accepts. The checks that judge a STDIO stream ask this of the POSIX
 * files: a stream whose descriptor has a POSIX record (through fileno()) that did the I/O is judged there, not
 * again. `where` may read state filled after this call.
 */
export function hasRow(ids: BigUint64Array, where: (row: number) => boolean): (id: bigint) => boolean {
  const find = rowOf(ids);
  return (id) => {
    const row = find(id);
    return row >= 0 && where(row);
  };
}

/** Median of a list of numbers (NaN when empty). */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The share of a finding's total a detail row holds at least to be listed (`significant`). */
export const SIGNIFICANT_SHARE = 0.01;

/**
 * Detail rows worth listing: those holding at least `minShare` of the total (1% by default), largest first. With
 * thousands of tiny files each holding a sliver, the insight's totals say it all and no file is singled out.
 */
export function significant<T>(rows: readonly T[], weight: (r: T) => number, minShare = SIGNIFICANT_SHARE): T[] {
  let total = 0;
  for (const r of rows) total += Math.max(0, weight(r));
  return rows.filter((r) => weight(r) > 0 && weight(r) >= minShare * total).sort((a, b) => weight(b) - weight(a));
}

/** The job's time model, or null (then costs are 0 and findings at most INFO). */
export function modelOf(ctx: DiagnosisContext): TimeModel | null {
  return ctx.tryFact('io.time');
}

/** A file's cumulative seconds in some operation classes (all when none are named), from the time model. */
export function secondsOf(model: TimeModel | null, id: bigint, ops?: readonly IoOp[]): number {
  return model ? fileSeconds(model, id, ops) : 0;
}

/** Data operation classes of one direction (sync time is its own class where DXT separates it, else inside write). */
export const DATA_OPS = { read: ['read'], write: ['write'], both: ['read', 'write'] } as const satisfies Record<string, readonly IoOp[]>;
