import { defineCheck } from '../define-check.js';
import { runRandomAccess } from '../families/random-access.js';

/** P13: many random POSIX writes (HIGH). */
export default defineCheck({
  meta: {
    code: 'P13',
    slug: 'random-writes',
    title: 'POSIX writes are mostly sequential',
    failureTitle: 'Many random POSIX writes',
    description:
      'A write at a lower offset than the previous one defeats read-ahead and write-behind and, on striped file ' +
      'systems, spreads requests over many servers. Darshan counts a request as sequential when its offset is past ' +
      'the previous one; the rest are random.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'job',
    level: 'HIGH',
    problem: 'random-write',
    requires: ['posix.totals'],
    options: {
      ratio: { knob: 'random_operations', description: 'Minimum share of random writes.' },
      absolute: { knob: 'random_operations_absolute', description: 'Minimum number of random writes.' },
    },
    messages: { random: '{count} random write requests ({ratio:pct} of all POSIX writes)' },
    recommendations: {
      sequentialLayout: { text: 'Reorganise the data layout or the access order so that each rank writes consecutive or at least increasing offsets' },
    },
    compat: { drishti: 'P13' },
  },
  run(ctx) {
    runRandomAccess(ctx, 'write');
  },
});
