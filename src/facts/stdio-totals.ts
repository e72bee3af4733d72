import { defineFact } from './define-fact.js';
import { sum } from './group.js';

export default defineFact({
  name: 'stdio.totals',
  description: 'Bytes read and written through STDIO, summed over all records.',
  fieldCounters: { bytesRead: ['STDIO_BYTES_READ'], bytesWritten: ['STDIO_BYTES_WRITTEN'] },
  compute(src) {
    const t = src.fixed('STDIO');
    if (!t) return null;
    return { records: t.length, bytesRead: sum(t.int('STDIO_BYTES_READ')), bytesWritten: sum(t.int('STDIO_BYTES_WRITTEN')) };
  },
});
