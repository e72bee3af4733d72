import { int, secs, type Rule } from '../types.js';

/** Calls are slow on average (high latency per operation). */
export const slowCalls: Rule = {
  id: 'slow-calls',
  title: 'Slow calls',
  description: 'the mean latency of the record’s calls exceeds 10 ms',
  source: 'builtin',
  explain(m) {
    if (m.ops > 0 && m.time / m.ops > 0.01) return [`the mean call takes ${secs(m.time / m.ops)} (${int(m.ops)} calls)`];
    return [];
  },
};
