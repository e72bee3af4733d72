import { type Rule } from '../types.js';
import { formatCount, formatPercent } from '../../../text/format.js';

/** Many reads/writes go backwards in the file (offset before the end of the previous access by the same process). */
export const randomAccess: Rule = {
  id: 'random-access',
  title: 'Random access',
  description: 'more than 20% of at least 10 reads/writes with a known offset start before the end of the previous access to the same file by the same process',
  source: 'builtin',
  explain(m) {
    if (m.offset_ops >= 10 && m.random_share > 0.2) {
      return [`${formatPercent(m.random_share)} of ${formatCount(m.offset_ops)} reads/writes with a known offset are random (non-sequential)`];
    }
    return [];
  },
};
