import { type Rule } from '../types.js';
import { formatBytes, formatCount } from '../../../text/format.js';

/** Some process moves far more bytes than the average process of the record. */
export const sizeImbalance: Rule = {
  id: 'size-imbalance',
  title: 'Size imbalance',
  description: 'with ≥ 2 processes and data moved, the process moving most bytes moves more than 2× the mean',
  source: 'builtin',
  explain(m) {
    if (m.nprocs >= 2 && m.bytes > 0 && m.proc_bytes_imbalance > 2) {
      return [`bytes are imbalanced across ${formatCount(m.nprocs)} processes: the largest moves ${m.proc_bytes_imbalance.toFixed(1)}× the mean (${formatBytes(m.bytes / m.nprocs)} per process on average)`];
    }
    return [];
  },
};
