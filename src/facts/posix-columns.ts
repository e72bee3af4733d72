import type { FixedTable } from '../formats/darshan/index.js';
import { addColumns } from './group.js';

/** Histogram bins of requests up to 1 MiB (Darshan's bins include their upper bound). */
export const SMALL_READ_BINS = ['POSIX_SIZE_READ_0_100', 'POSIX_SIZE_READ_100_1K', 'POSIX_SIZE_READ_1K_10K', 'POSIX_SIZE_READ_10K_100K', 'POSIX_SIZE_READ_100K_1M'] as const;
export const SMALL_WRITE_BINS = ['POSIX_SIZE_WRITE_0_100', 'POSIX_SIZE_WRITE_100_1K', 'POSIX_SIZE_WRITE_1K_10K', 'POSIX_SIZE_WRITE_10K_100K', 'POSIX_SIZE_WRITE_100K_1M'] as const;

const smallCache = new WeakMap<FixedTable, { reads: Float64Array; writes: Float64Array }>();

/** Per-record small read/write counts of a POSIX table (computed once per table). */
export function smallRequestColumns(t: FixedTable): { reads: Float64Array; writes: Float64Array } {
  let c = smallCache.get(t);
  if (!c) {
    c = {
      reads: addColumns(SMALL_READ_BINS.map((b) => t.int(b)), t.length),
      writes: addColumns(SMALL_WRITE_BINS.map((b) => t.int(b)), t.length),
    };
    smallCache.set(t, c);
  }
  return c;
}
