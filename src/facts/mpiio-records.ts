import { defineFact } from './define-fact.js';
import { groupAllById, sumByGroup } from './group.js';

export default defineFact({
  name: 'mpiio.records',
  description: 'MPI-IO independent operations per record (log order) and independent/collective operations per file.',
  compute(src) {
    const t = src.fixed('MPI-IO');
    if (!t) return null;
    const g = groupAllById(t.ids);
    const ir = t.int('MPIIO_INDEP_READS');
    const iw = t.int('MPIIO_INDEP_WRITES');
    return {
      ids: t.ids,
      ranks: t.ranks.col(0),
      indepReads: ir,
      indepWrites: iw,
      byFile: {
        ids: g.keys,
        indepReads: sumByGroup(g, ir),
        indepWrites: sumByGroup(g, iw),
        collReads: sumByGroup(g, t.int('MPIIO_COLL_READS')),
        collWrites: sumByGroup(g, t.int('MPIIO_COLL_WRITES')),
      },
    };
  },
});
