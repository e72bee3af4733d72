import { defineCheck } from '../define-check.js';
import { runRandomAccess } from '../families/random-access.js';

/** P11: many random POSIX reads (HIGH). */
export default defineCheck({
  meta: {
    code: 'P11',
    slug: 'random-reads',
    title: 'POSIX reads are mostly sequential',
    failureTitle: 'Many random POSIX reads',
    description:
      'A read at a lower offset than the previous one defeats read-ahead and write-behind and, on striped file ' +
      'systems, spreads requests over many servers. Darshan counts a request as sequential when its offset is past ' +
      'the previous one; the rest are random.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'job',
    level: 'HIGH',
    problem: 'random-read',
    requires: ['posix.totals'],
    options: {
      ratio: { knob: 'random_operations', description: 'Minimum share of random reads.' },
      absolute: { knob: 'random_operations_absolute', description: 'Minimum number of random reads.' },
    },
    messages: { random: '{count} random read requests ({ratio:pct} of all POSIX reads)' },
    recommendations: {
      sequentialLayout: { text: 'Reorganise the data layout or the access order so that each rank reads consecutive or at least increasing offsets' },
    },
    compat: { drishti: 'P11' },
  },
  run(ctx) {
    runRandomAccess(ctx, 'read');
  },
});
