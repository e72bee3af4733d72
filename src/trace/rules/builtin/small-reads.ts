import { type Rule } from '../types.js';
import { formatBytes, formatCount, formatPercent } from '../../../text/format.js';

/** Most reads are smaller than the small-request size. */
export const smallReads: Rule = {
  id: 'small-reads',
  title: 'Small reads',
  description: 'more than 50% of at least 10 reads are smaller than the small-request size (default 1 MiB)',
  source: 'builtin',
  explain(m, ctx) {
    if (m.read_ops >= 10 && m.small_read_share > 0.5) {
      return [`${formatPercent(m.small_read_share)} of ${formatCount(m.read_ops)} reads are smaller than ${formatBytes(ctx.smallBytes)} (average ${formatBytes(m.read_size_avg)})`];
    }
    return [];
  },
};
