import { bytes, int, pct, type Rule } from '../types.js';

/** Most reads are smaller than the small-request size. */
export const smallReads: Rule = {
  id: 'small-reads',
  title: 'Small reads',
  description: 'more than 50% of at least 10 reads are smaller than the small-request size (default 1 MiB)',
  source: 'builtin',
  explain(m, ctx) {
    if (m.read_ops >= 10 && m.small_read_share > 0.5) {
      return [`${pct(m.small_read_share)} of ${int(m.read_ops)} reads are smaller than ${bytes(ctx.smallBytes)} (average ${bytes(m.read_size_avg)})`];
    }
    return [];
  },
};
