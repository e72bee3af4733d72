import { type Rule } from '../types.js';
import { formatCount, formatPercent } from '../../../text/format.js';

/** Sync calls (fsync, fdatasync, MPI_File_sync, …) take a large share of the I/O time. */
export const fsyncHeavy: Rule = {
  id: 'fsync-heavy',
  title: 'fsync-heavy',
  description: 'sync calls take more than 20% of the I/O time',
  source: 'builtin',
  explain(m) {
    if (m.sync_ops > 0 && m.sync_time_share > 0.2) {
      return [`${formatCount(m.sync_ops)} sync calls take ${formatPercent(m.sync_time_share)} of the I/O time`];
    }
    return [];
  },
};
