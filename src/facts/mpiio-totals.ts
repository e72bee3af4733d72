import { defineFact } from './define-fact.js';
import { sum } from './group.js';

/** The counters of the operation and byte fields of the MPI-IO facts (`fieldCounters`). */
export const MPIIO_OP_COUNTERS = {
  indepReads: ['MPIIO_INDEP_READS'],
  indepWrites: ['MPIIO_INDEP_WRITES'],
  collReads: ['MPIIO_COLL_READS'],
  collWrites: ['MPIIO_COLL_WRITES'],
  nbReads: ['MPIIO_NB_READS'],
  nbWrites: ['MPIIO_NB_WRITES'],
  bytesRead: ['MPIIO_BYTES_READ'],
  bytesWritten: ['MPIIO_BYTES_WRITTEN'],
} as const;

export default defineFact({
  name: 'mpiio.totals',
  description: 'MPI-IO independent, collective and non-blocking operation counts and bytes, summed over all records.',
  fieldCounters: MPIIO_OP_COUNTERS,
  compute(src) {
    const t = src.fixed('MPI-IO');
    if (!t) return null;
    return {
      records: t.length,
      indepReads: sum(t.int('MPIIO_INDEP_READS')),
      indepWrites: sum(t.int('MPIIO_INDEP_WRITES')),
      collReads: sum(t.int('MPIIO_COLL_READS')),
      collWrites: sum(t.int('MPIIO_COLL_WRITES')),
      nbReads: sum(t.int('MPIIO_NB_READS')),
      nbWrites: sum(t.int('MPIIO_NB_WRITES')),
      bytesRead: sum(t.int('MPIIO_BYTES_READ')),
      bytesWritten: sum(t.int('MPIIO_BYTES_WRITTEN')),
    };
  },
});
