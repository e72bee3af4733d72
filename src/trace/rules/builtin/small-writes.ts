import { type Rule } from '../types.js';
import { formatBytes, formatCount, formatPercent } from '../../../text/format.js';

/** Most writes are smaller than the small-request size. */
export const smallWrites: Rule = {
  id: 'small-writes',
  title: 'Small writes',
  description: 'more than 50% of at least 10 writes are smaller than the small-request size (default 1 MiB)',
  source: 'builtin',
  explain(m, ctx) {
    if (m.write_ops >= 10 && m.small_write_share > 0.5) {
      return [`${formatPercent(m.small_write_share)} of ${formatCount(m.write_ops)} writes are smaller than ${formatBytes(ctx.smallBytes)} (average ${formatBytes(m.write_size_avg)})`];
    }
    return [];
  },
};
