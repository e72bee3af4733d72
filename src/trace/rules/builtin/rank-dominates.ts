import { type Rule } from '../types.js';
import { formatCount, formatPercent } from '../../../text/format.js';

/** One process accounts for most of the record's I/O time. */
export const rankDominates: Rule = {
  id: 'rank-dominates',
  title: 'One process does most of the I/O',
  description: 'with ≥ 2 processes, a single process spends more than 50% of the I/O time',
  source: 'builtin',
  explain(m) {
    if (m.nprocs >= 2 && m.top_proc_time_share > 0.5) {
      return [`one of ${formatCount(m.nprocs)} processes spends ${formatPercent(m.top_proc_time_share)} of the I/O time`];
    }
    return [];
  },
};
