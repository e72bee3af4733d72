import { defineFact } from './define-fact.js';
import { groupById, maxByGroup, sumByGroup } from './group.js';
import { MPIIO_OP_COUNTERS } from './mpiio-totals.js';
import { bytesBelowAtLeast, requestCounters, requestsBelow, sizeBins, SMALL_REQUEST_BYTES } from './posix-files.js';

const SMALL_MPIIO = requestCounters('MPIIO', 'MPIIO_SIZE_READ_AGG_', 'MPIIO_SIZE_WRITE_AGG_');

export default defineFact({
  name: 'mpiio.files',
  description: 'MPI-IO counters per file (every rank and the shared record summed): independent, collective and non-blocking operations, bytes, small requests, rank extremes.',
  fieldCounters: {
    ...MPIIO_OP_COUNTERS,
    splitReads: ['MPIIO_SPLIT_READS'],
    splitWrites: ['MPIIO_SPLIT_WRITES'],
    views: ['MPIIO_VIEWS'],
    rwSwitches: ['MPIIO_RW_SWITCHES'],
    smallReads: SMALL_MPIIO,
    smallWrites: SMALL_MPIIO,
    smallReadBytes: SMALL_MPIIO,
    smallWriteBytes: SMALL_MPIIO,
    readTime: ['MPIIO_F_READ_TIME'],
    writeTime: ['MPIIO_F_WRITE_TIME'],
    metaTime: ['MPIIO_F_META_TIME'],
    slowestRankBytes: ['MPIIO_SLOWEST_RANK_BYTES'],
    fastestRankBytes: ['MPIIO_FASTEST_RANK_BYTES'],
  },
  compute(src) {
    const t = src.fixed('MPI-IO');
    if (!t) return null;
    const n = t.length;
    const g = groupById(t.ids);
    const k = g.keys.length;
    const ranks = t.ranks.col(0);
    const rb = sizeBins(t, 'MPIIO_SIZE_READ_AGG_');
    const wb = sizeBins(t, 'MPIIO_SIZE_WRITE_AGG_');
    const acc = [1, 2, 3, 4].map((i) => t.int(`MPIIO_ACCESS${i}_ACCESS` as never));
    const cnt = [1, 2, 3, 4].map((i) => t.int(`MPIIO_ACCESS${i}_COUNT` as never));
    const smallR = new Float64Array(n), smallW = new Float64Array(n), smallRB = new Float64Array(n), smallWB = new Float64Array(n), shared = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      smallR[r] = requestsBelow(SMALL_REQUEST_BYTES, rb, wb, acc, cnt, r);
      smallW[r] = requestsBelow(SMALL_REQUEST_BYTES, wb, rb, acc, cnt, r);
      smallRB[r] = bytesBelowAtLeast(SMALL_REQUEST_BYTES, rb, wb, acc, cnt, r);
      smallWB[r] = bytesBelowAtLeast(SMALL_REQUEST_BYTES, wb, rb, acc, cnt, r);
      if (ranks[r] === -1) shared[r] = 1;
    }
    const onShared = (col: Float64Array, fill: number) => {
      const out = new Float64Array(k).fill(fill);
      for (let r = 0; r < n; r++) if (ranks[r] === -1) out[g.groupOf[r]] = col[r];
      return out;
    };
    const sum = (name: string) => sumByGroup(g, t.int(name as never));
    const fsum = (name: string) => sumByGroup(g, t.float(name as never));
    return {
      ids: g.keys,
      shared: maxByGroup(g, shared),
      indepReads: sum('MPIIO_INDEP_READS'),
      indepWrites: sum('MPIIO_INDEP_WRITES'),
      collReads: sum('MPIIO_COLL_READS'),
      collWrites: sum('MPIIO_COLL_WRITES'),
      nbReads: sum('MPIIO_NB_READS'),
      nbWrites: sum('MPIIO_NB_WRITES'),
      splitReads: sum('MPIIO_SPLIT_READS'),
      splitWrites: sum('MPIIO_SPLIT_WRITES'),
      views: sum('MPIIO_VIEWS'),
      rwSwitches: sum('MPIIO_RW_SWITCHES'),
      bytesRead: sum('MPIIO_BYTES_READ'),
      bytesWritten: sum('MPIIO_BYTES_WRITTEN'),
      smallReads: sumByGroup(g, smallR),
      smallWrites: sumByGroup(g, smallW),
      smallReadBytes: sumByGroup(g, smallRB),
      smallWriteBytes: sumByGroup(g, smallWB),
      readTime: fsum('MPIIO_F_READ_TIME'),
      writeTime: fsum('MPIIO_F_WRITE_TIME'),
      metaTime: fsum('MPIIO_F_META_TIME'),
      slowestRankBytes: onShared(t.int('MPIIO_SLOWEST_RANK_BYTES'), NaN),
      fastestRankBytes: onShared(t.int('MPIIO_FASTEST_RANK_BYTES'), NaN),
    };
  },
});
