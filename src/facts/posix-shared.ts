import { defineFact } from './define-fact.js';
import { SMALL_READ_BINS, SMALL_WRITE_BINS, smallRequestColumns } from './posix-columns.js';

export default defineFact({
  name: 'posix.shared',
  description: "Darshan's shared-file POSIX records (rank −1) in log order: small requests and slowest/fastest rank gaps.",
  fieldCounters: {
    reads: ['POSIX_READS'],
    writes: ['POSIX_WRITES'],
    smallReads: SMALL_READ_BINS,
    smallWrites: SMALL_WRITE_BINS,
    smallReadsPerRecord: SMALL_READ_BINS,
    smallWritesPerRecord: SMALL_WRITE_BINS,
    dataImbalance: ['POSIX_SLOWEST_RANK_BYTES', 'POSIX_FASTEST_RANK_BYTES', 'POSIX_BYTES_READ', 'POSIX_BYTES_WRITTEN'],
    timeImbalance: ['POSIX_F_SLOWEST_RANK_TIME', 'POSIX_F_FASTEST_RANK_TIME', 'POSIX_F_READ_TIME', 'POSIX_F_WRITE_TIME', 'POSIX_F_META_TIME'],
  },
  compute(src) {
    const t = src.fixed('POSIX');
    if (!t) return null;
    const ranks = t.ranks.col(0);
    const rows: number[] = [];
    for (let r = 0; r < t.length; r++) if (ranks[r] === -1) rows.push(r);
    const n = rows.length;
    const small = smallRequestColumns(t);
    const reads = t.int('POSIX_READS');
    const writes = t.int('POSIX_WRITES');
    const br = t.int('POSIX_BYTES_READ');
    const bw = t.int('POSIX_BYTES_WRITTEN');
    const slowB = t.int('POSIX_SLOWEST_RANK_BYTES');
    const fastB = t.int('POSIX_FASTEST_RANK_BYTES');
    const rt = t.float('POSIX_F_READ_TIME');
    const wt = t.float('POSIX_F_WRITE_TIME');
    const mt = t.float('POSIX_F_META_TIME');
    const slowT = t.float('POSIX_F_SLOWEST_RANK_TIME');
    const fastT = t.float('POSIX_F_FASTEST_RANK_TIME');
    const ids = new BigUint64Array(n);
    const sR = new Float64Array(n);
    const sW = new Float64Array(n);
    const dI = new Float64Array(n);
    const tI = new Float64Array(n);
    let totR = 0, totW = 0, totSR = 0, totSW = 0;
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      ids[i] = t.ids[r];
      sR[i] = small.reads[r];
      sW[i] = small.writes[r];
      totR += reads[r];
      totW += writes[r];
      totSR += small.reads[r];
      totSW += small.writes[r];
      const bytes = br[r] + bw[r];
      dI[i] = bytes ? Math.abs(slowB[r] - fastB[r]) / bytes : NaN;
      const time = wt[r] + rt[r] + mt[r];
      tI[i] = time ? Math.abs(slowT[r] - fastT[r]) / time : NaN;
    }
    return { ids, reads: totR, writes: totW, smallReads: totSR, smallWrites: totSW, smallReadsPerRecord: sR, smallWritesPerRecord: sW, dataImbalance: dI, timeImbalance: tI };
  },
});
