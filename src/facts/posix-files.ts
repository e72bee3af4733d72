import type { FixedTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import { groupById, maxByGroup, sumByGroup } from './group.js';
import { storageRow } from './not-storage.js';

/** Upper bounds (inclusive) of Darshan's request-size bins, in bytes; the last bin is open. */
export const SIZE_BIN_UPPER = [100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824, Infinity] as const;
const BIN_SUFFIX = ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'] as const;

/** The size-bin columns of a module's table (`POSIX_SIZE_READ_`, `MPIIO_SIZE_WRITE_AGG_`…). */
export function sizeBins(t: FixedTable, prefix: string): Float64Array[] {
  return BIN_SUFFIX.map((s) => t.int(`${prefix}${s}` as never));
}

/**
 * Requests of a record smaller than `limit` bytes, from its size bins, refined with the common-access counters
 * (`*_ACCESS1..4_ACCESS/COUNT`, exact sizes of the four most frequent requests): in the bin that contains `limit`,
 * requests known to be at least `limit` are not counted; requests of unknown size there are counted as small.
 * `known` sizes are shared by reads and writes, so they are removed in proportion to the bin's reads and writes.
 */
export function requestsBelow(limit: number, bins: Float64Array[], other: Float64Array[], access: Float64Array[], counts: Float64Array[], r: number): number {
  let n = 0;
  for (let b = 0; b < bins.length; b++) {
    const lo = b === 0 ? 0 : SIZE_BIN_UPPER[b - 1] + 1;
    const hi = SIZE_BIN_UPPER[b];
    if (hi < limit) n += bins[b][r];
    else if (lo < limit) {
      let known = 0;
      for (let k = 0; k < access.length; k++) if (access[k][r] >= limit && access[k][r] >= lo && access[k][r] <= hi) known += counts[k][r];
      const both = bins[b][r] + other[b][r];
      const mine = both > 0 ? known * (bins[b][r] / both) : 0;
      n += Math.max(0, bins[b][r] - mine);
    }
  }
  return n;
}

/**
 * Bytes carried by the requests of a record smaller than `limit` bytes, a lower bound: requests of a known common
 * size (`*_ACCESS1..4`) count that size (split between reads and writes in proportion, as in `requestsBelow`), the
 * others their bin's lower edge; in the bin that contains `limit`, requests of unknown size count nothing (they may
 * be `limit` long).
 */
export function bytesBelowAtLeast(limit: number, bins: Float64Array[], other: Float64Array[], access: Float64Array[], counts: Float64Array[], r: number): number {
  let bytes = 0;
  for (let b = 0; b < bins.length; b++) {
    const lo = b === 0 ? 0 : SIZE_BIN_UPPER[b - 1] + 1;
    const hi = SIZE_BIN_UPPER[b];
    if (lo >= limit || !(bins[b][r] > 0)) continue;
    const both = bins[b][r] + other[b][r];
    let known = 0;
    for (let k = 0; k < access.length; k++) {
      const size = access[k][r];
      if (!(size > 0 && size < limit && size >= lo && size <= hi)) continue;
      const mine = Math.min(bins[b][r] - known, counts[k][r] * (bins[b][r] / both));
      if (!(mine > 0)) continue;
      known += mine;
      bytes += mine * size;
    }
    if (hi < limit) bytes += Math.max(0, bins[b][r] - known) * lo;
  }
  return bytes;
}

/**
 * The counters `requestsBelow` reads for a module, for `fieldCounters`: both directions' size bins and the common
 * access sizes (`requestCounters('POSIX', 'POSIX_SIZE_READ_', 'POSIX_SIZE_WRITE_')`).
 */
export function requestCounters(module: string, readBins: string, writeBins: string): string[] {
  return [
    ...BIN_SUFFIX.map((s) => `${readBins}${s}`),
    ...BIN_SUFFIX.map((s) => `${writeBins}${s}`),
    ...[1, 2, 3, 4].flatMap((i) => [`${module}_ACCESS${i}_ACCESS`, `${module}_ACCESS${i}_COUNT`]),
  ];
}
const SMALL_POSIX = requestCounters('POSIX', 'POSIX_SIZE_READ_', 'POSIX_SIZE_WRITE_');

/** Small-request limit of the default mode's facts: strictly below 1 MiB (a 1 MiB request is not small). */
export const SMALL_REQUEST_BYTES = 1048576;

export default defineFact({
  name: 'posix.files',
  description: 'POSIX counters per file (every rank and the shared record summed), with shared-record rank extremes and small / sub-block request estimates; files that are not storage (pipes, devices, standard streams) left out.',
  fieldCounters: {
    opens: ['POSIX_OPENS'],
    stats: ['POSIX_STATS'],
    reads: ['POSIX_READS'],
    writes: ['POSIX_WRITES'],
    syncs: ['POSIX_FSYNCS', 'POSIX_FDSYNCS'],
    rwSwitches: ['POSIX_RW_SWITCHES'],
    bytesRead: ['POSIX_BYTES_READ'],
    bytesWritten: ['POSIX_BYTES_WRITTEN'],
    extent: ['POSIX_MAX_BYTE_READ', 'POSIX_MAX_BYTE_WRITTEN'],
    consecReads: ['POSIX_CONSEC_READS'],
    consecWrites: ['POSIX_CONSEC_WRITES'],
    seqReads: ['POSIX_SEQ_READS'],
    seqWrites: ['POSIX_SEQ_WRITES'],
    stridedOps: [1, 2, 3, 4].flatMap((i) => [`POSIX_STRIDE${i}_STRIDE`, `POSIX_STRIDE${i}_COUNT`]),
    notAligned: ['POSIX_FILE_NOT_ALIGNED'],
    alignment: ['POSIX_FILE_ALIGNMENT'],
    subBlockOps: ['POSIX_FILE_ALIGNMENT', ...SMALL_POSIX],
    smallReads: SMALL_POSIX,
    smallWrites: SMALL_POSIX,
    smallReadBytes: SMALL_POSIX,
    smallWriteBytes: SMALL_POSIX,
    readTime: ['POSIX_F_READ_TIME'],
    writeTime: ['POSIX_F_WRITE_TIME'],
    metaTime: ['POSIX_F_META_TIME'],
    slowestRank: ['POSIX_SLOWEST_RANK'],
    slowestRankBytes: ['POSIX_SLOWEST_RANK_BYTES'],
    fastestRankBytes: ['POSIX_FASTEST_RANK_BYTES'],
    slowestRankTime: ['POSIX_F_SLOWEST_RANK_TIME'],
    fastestRankTime: ['POSIX_F_FASTEST_RANK_TIME'],
  },
  compute(src) {
    const t = src.fixed('POSIX');
    if (!t) return null;
    const n = t.length;
    // Files that are not storage (pipes, devices, the standard streams) are left out: their time is waiting.
    const g = groupById(t.ids, storageRow(src, t.ids));
    const k = g.keys.length;
    const ranks = t.ranks.col(0);
    const rb = sizeBins(t, 'POSIX_SIZE_READ_');
    const wb = sizeBins(t, 'POSIX_SIZE_WRITE_');
    const acc = [1, 2, 3, 4].map((i) => t.int(`POSIX_ACCESS${i}_ACCESS` as never));
    const cnt = [1, 2, 3, 4].map((i) => t.int(`POSIX_ACCESS${i}_COUNT` as never));
    const strideCount = [1, 2, 3, 4].map((i) => t.int(`POSIX_STRIDE${i}_COUNT` as never));
    const strideSize = [1, 2, 3, 4].map((i) => t.int(`POSIX_STRIDE${i}_STRIDE` as never));
    const align = t.int('POSIX_FILE_ALIGNMENT');
    const smallRB = new Float64Array(n), smallWB = new Float64Array(n);
    const smallR = new Float64Array(n), smallW = new Float64Array(n), subBlock = new Float64Array(n), strided = new Float64Array(n), shared = new Float64Array(n), perRank = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      smallR[r] = requestsBelow(SMALL_REQUEST_BYTES, rb, wb, acc, cnt, r);
      smallW[r] = requestsBelow(SMALL_REQUEST_BYTES, wb, rb, acc, cnt, r);
      smallRB[r] = bytesBelowAtLeast(SMALL_REQUEST_BYTES, rb, wb, acc, cnt, r);
      smallWB[r] = bytesBelowAtLeast(SMALL_REQUEST_BYTES, wb, rb, acc, cnt, r);
      const a = align[r] > 0 ? align[r] : 4096;
      subBlock[r] = requestsBelow(a, rb, wb, acc, cnt, r) + requestsBelow(a, wb, rb, acc, cnt, r);
      for (let s = 0; s < 4; s++) if (strideSize[s][r] > 0) strided[r] += strideCount[s][r];
      if (ranks[r] === -1) shared[r] = 1;
      else perRank[r] = 1;
    }
    const onShared = (col: Float64Array, fill: number) => {
      const out = new Float64Array(k).fill(fill);
      for (let r = 0; r < n; r++) if (ranks[r] === -1) out[g.groupOf[r]] = col[r];
      return out;
    };
    const sum = (name: string) => sumByGroup(g, t.int(name as never));
    const fsum = (name: string) => sumByGroup(g, t.float(name as never));
    const extent = new Float64Array(k);
    const mbr = maxByGroup(g, t.int('POSIX_MAX_BYTE_READ'));
    const mbw = maxByGroup(g, t.int('POSIX_MAX_BYTE_WRITTEN'));
    for (let i = 0; i < k; i++) extent[i] = Math.max(0, mbr[i] + 1, mbw[i] + 1);
    const fsyncs = sum('POSIX_FSYNCS');
    const fdsyncs = sum('POSIX_FDSYNCS');
    for (let i = 0; i < k; i++) fsyncs[i] += fdsyncs[i];
    return {
      ids: g.keys,
      shared: maxByGroup(g, shared),
      rankRecords: sumByGroup(g, perRank),
      opens: sum('POSIX_OPENS'),
      stats: sum('POSIX_STATS'),
      reads: sum('POSIX_READS'),
      writes: sum('POSIX_WRITES'),
      syncs: fsyncs,
      rwSwitches: sum('POSIX_RW_SWITCHES'),
      bytesRead: sum('POSIX_BYTES_READ'),
      bytesWritten: sum('POSIX_BYTES_WRITTEN'),
      extent,
      consecReads: sum('POSIX_CONSEC_READS'),
      consecWrites: sum('POSIX_CONSEC_WRITES'),
      seqReads: sum('POSIX_SEQ_READS'),
      seqWrites: sum('POSIX_SEQ_WRITES'),
      stridedOps: sumByGroup(g, strided),
      notAligned: sum('POSIX_FILE_NOT_ALIGNED'),
      alignment: maxByGroup(g, align),
      subBlockOps: sumByGroup(g, subBlock),
      smallReads: sumByGroup(g, smallR),
      smallWrites: sumByGroup(g, smallW),
      smallReadBytes: sumByGroup(g, smallRB),
      smallWriteBytes: sumByGroup(g, smallWB),
      readTime: fsum('POSIX_F_READ_TIME'),
      writeTime: fsum('POSIX_F_WRITE_TIME'),
      metaTime: fsum('POSIX_F_META_TIME'),
      slowestRank: onShared(t.int('POSIX_SLOWEST_RANK'), -1),
      slowestRankBytes: onShared(t.int('POSIX_SLOWEST_RANK_BYTES'), NaN),
      fastestRankBytes: onShared(t.int('POSIX_FASTEST_RANK_BYTES'), NaN),
      slowestRankTime: onShared(t.float('POSIX_F_SLOWEST_RANK_TIME'), NaN),
      fastestRankTime: onShared(t.float('POSIX_F_FASTEST_RANK_TIME'), NaN),
    };
  },
});
