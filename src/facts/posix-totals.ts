import { defineFact } from './define-fact.js';
import { sum } from './group.js';
import { SMALL_READ_BINS, SMALL_WRITE_BINS, smallRequestColumns } from './posix-columns.js';

function max(col: Float64Array): number {
  let m = -Infinity;
  for (let i = 0; i < col.length; i++) if (col[i] > m) m = col[i];
  return m;
}

export default defineFact({
  name: 'posix.totals',
  description: 'POSIX operation counts, bytes, small, misaligned, consecutive and sequential requests, summed over all records.',
  fieldCounters: {
    reads: ['POSIX_READS'],
    writes: ['POSIX_WRITES'],
    bytesRead: ['POSIX_BYTES_READ'],
    bytesWritten: ['POSIX_BYTES_WRITTEN'],
    smallReads: SMALL_READ_BINS,
    smallWrites: SMALL_WRITE_BINS,
    memNotAligned: ['POSIX_MEM_NOT_ALIGNED'],
    fileNotAligned: ['POSIX_FILE_NOT_ALIGNED'],
    consecReads: ['POSIX_CONSEC_READS'],
    seqReads: ['POSIX_SEQ_READS'],
    consecWrites: ['POSIX_CONSEC_WRITES'],
    seqWrites: ['POSIX_SEQ_WRITES'],
    maxByteReadMax: ['POSIX_MAX_BYTE_READ'],
    maxByteWrittenMax: ['POSIX_MAX_BYTE_WRITTEN'],
  },
  compute(src) {
    const t = src.fixed('POSIX');
    if (!t) return null;
    const small = smallRequestColumns(t);
    return {
      records: t.length,
      reads: sum(t.int('POSIX_READS')),
      writes: sum(t.int('POSIX_WRITES')),
      bytesRead: sum(t.int('POSIX_BYTES_READ')),
      bytesWritten: sum(t.int('POSIX_BYTES_WRITTEN')),
      smallReads: sum(small.reads),
      smallWrites: sum(small.writes),
      memNotAligned: sum(t.int('POSIX_MEM_NOT_ALIGNED')),
      fileNotAligned: sum(t.int('POSIX_FILE_NOT_ALIGNED')),
      consecReads: sum(t.int('POSIX_CONSEC_READS')),
      seqReads: sum(t.int('POSIX_SEQ_READS')),
      consecWrites: sum(t.int('POSIX_CONSEC_WRITES')),
      seqWrites: sum(t.int('POSIX_SEQ_WRITES')),
      maxByteReadMax: max(t.int('POSIX_MAX_BYTE_READ')),
      maxByteWrittenMax: max(t.int('POSIX_MAX_BYTE_WRITTEN')),
    };
  },
});
