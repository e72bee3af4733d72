import { type Rule } from '../types.js';
import { formatCount, formatSeconds } from '../../../text/format.js';

/** Calls are slow on average (high latency per operation). */
export const slowCalls: Rule = {
  id: 'slow-calls',
  title: 'Slow calls',
  description: 'the mean latency of the record’s calls exceeds 10 ms',
  source: 'builtin',
  explain(m) {
    if (m.ops > 0 && m.time / m.ops > 0.01) return [`the mean call takes ${formatSeconds(m.time / m.ops)} (${formatCount(m.ops)} calls)`];
    return [];
  },
};
