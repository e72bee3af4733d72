import { defineFact } from './define-fact.js';
import { countByGroup, groupById, maxByGroup, minByGroup } from './group.js';

export default defineFact({
  name: 'posix.rankSpread',
  description: 'Per-rank POSIX records (not the shared ones) grouped by file: rank count and min/max bytes per rank.',
  fieldCounters: {
    bytesWrittenMin: ['POSIX_BYTES_WRITTEN'],
    bytesWrittenMax: ['POSIX_BYTES_WRITTEN'],
    bytesReadMin: ['POSIX_BYTES_READ'],
    bytesReadMax: ['POSIX_BYTES_READ'],
  },
  compute(src) {
    const t = src.fixed('POSIX');
    if (!t) return null;
    const ranks = t.ranks.col(0);
    const g = groupById(t.ids, (r) => ranks[r] !== -1);
    const w = t.int('POSIX_BYTES_WRITTEN');
    const rd = t.int('POSIX_BYTES_READ');
    return {
      ids: g.keys,
      ranks: countByGroup(g),
      bytesWrittenMin: minByGroup(g, w),
      bytesWrittenMax: maxByGroup(g, w),
      bytesReadMin: minByGroup(g, rd),
      bytesReadMax: maxByGroup(g, rd),
    };
  },
});
