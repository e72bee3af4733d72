import { type Rule } from '../types.js';
import { formatCount, formatPercent } from '../../../text/format.js';

/** Metadata calls (open, stat, close, seek, …) take most of the record's I/O time. */
export const excessiveMetadata: Rule = {
  id: 'excessive-metadata',
  title: 'Excessive metadata',
  description: 'metadata calls take more than 50% of the I/O time (at least 10 calls)',
  source: 'builtin',
  explain(m) {
    if (m.metadata_ops >= 10 && m.metadata_time_share > 0.5) {
      return [`metadata calls take ${formatPercent(m.metadata_time_share)} of the I/O time (${formatCount(m.metadata_ops)} calls, ${formatPercent(m.metadata_ops_share)} of the operations)`];
    }
    return [];
  },
};
