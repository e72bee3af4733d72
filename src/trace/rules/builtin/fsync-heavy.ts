import { int, pct, type Rule } from '../types.js';

/** Sync calls (fsync, fdatasync, MPI_File_sync, …) take a large share of the I/O time. */
export const fsyncHeavy: Rule = {
  id: 'fsync-heavy',
  title: 'fsync-heavy',
  description: 'sync calls take more than 20% of the I/O time',
  source: 'builtin',
  explain(m) {
    if (m.sync_ops > 0 && m.sync_time_share > 0.2) {
      return [`${int(m.sync_ops)} sync calls take ${pct(m.sync_time_share)} of the I/O time`];
    }
    return [];
  },
};
