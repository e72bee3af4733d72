import { defineFact } from './define-fact.js';
import { groupAllById, maxByGroup, sumByGroup } from './group.js';
import { SMALL_READ_BINS, SMALL_WRITE_BINS, smallRequestColumns } from './posix-columns.js';

export default defineFact({
  name: 'posix.byFile',
  description: 'POSIX records grouped by file (all ranks and the shared record summed), ids ascending.',
  fieldCounters: {
    reads: ['POSIX_READS'],
    writes: ['POSIX_WRITES'],
    smallReads: SMALL_READ_BINS,
    smallWrites: SMALL_WRITE_BINS,
    bytesRead: ['POSIX_BYTES_READ'],
    bytesWritten: ['POSIX_BYTES_WRITTEN'],
    maxByteRead: ['POSIX_MAX_BYTE_READ'],
    maxByteWritten: ['POSIX_MAX_BYTE_WRITTEN'],
  },
  compute(src) {
    const t = src.fixed('POSIX');
    if (!t) return null;
    const g = groupAllById(t.ids);
    const small = smallRequestColumns(t);
    return {
      ids: g.keys,
      reads: sumByGroup(g, t.int('POSIX_READS')),
      writes: sumByGroup(g, t.int('POSIX_WRITES')),
      smallReads: sumByGroup(g, small.reads),
      smallWrites: sumByGroup(g, small.writes),
      bytesRead: sumByGroup(g, t.int('POSIX_BYTES_READ')),
      bytesWritten: sumByGroup(g, t.int('POSIX_BYTES_WRITTEN')),
      maxByteRead: maxByGroup(g, t.int('POSIX_MAX_BYTE_READ')),
      maxByteWritten: maxByGroup(g, t.int('POSIX_MAX_BYTE_WRITTEN')),
    };
  },
});
