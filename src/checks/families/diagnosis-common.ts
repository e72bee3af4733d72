import type { FactName, FactValues } from '../../facts/types.js';
import type { Subject } from '../../contract/index.js';

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
 * Index of each id of `ids` (ascending, as facts give them) for lookups across facts; built once per id column
 * (a dozen checks look up the same facts' ids: on a 50,000-file log, building a Map per check cost ~30 ms).
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

/**
 * Whether `ids` holds `id` in a row `where` accepts, looked up through the shared index (`indexOf`). The checks that
 * judge a STDIO stream ask this of the POSIX files: a stream whose descriptor has a POSIX record (through fileno())
 * that did the I/O is judged there, not again. `where` may read state filled after this call.
 */
export function hasRow(ids: BigUint64Array, where: (row: number) => boolean): (id: bigint) => boolean {
  const index = indexOf(ids);
  return (id) => {
    const row = index.get(id);
    return row !== undefined && where(row);
  };
}

/** Median of a list of numbers (NaN when empty). */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Detail rows worth listing: those holding at least `minShare` of the total (1% by default), largest first. With
 * thousands of tiny files each holding a sliver, the insight's totals say it all and no file is singled out.
 */
export function significant<T>(rows: readonly T[], weight: (r: T) => number, minShare = 0.01): T[] {
  let total = 0;
  for (const r of rows) total += Math.max(0, weight(r));
  return rows.filter((r) => weight(r) > 0 && weight(r) >= minShare * total).sort((a, b) => weight(b) - weight(a));
}
