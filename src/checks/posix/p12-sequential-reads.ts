import { defineCheck } from '../define-check.js';
import { runSequentialAccess } from '../families/random-access.js';

/** P12: POSIX reads are mostly consecutive or sequential (OK). */
export default defineCheck({
  meta: {
    code: 'P12',
    slug: 'sequential-reads',
    title: 'POSIX reads are mostly consecutive or sequential',
    failureTitle: 'POSIX reads are mostly consecutive or sequential',
    description:
      "The job's POSIX reads mostly move forward through their files: the access pattern is friendly to caches and " +
      'striping.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'job',
    level: 'OK',
    problem: 'random-read',
    requires: ['posix.totals'],
    options: {
      ratio: { knob: 'random_operations', description: 'Share of random reads at or below which this observation is made.' },
      absolute: { knob: 'random_operations_absolute', description: 'Number of random reads at or below which this observation is made (either bound suffices).' },
    },
    messages: {
      sequential: 'POSIX reads are mostly consecutive ({consecutiveRatio:pct}) or sequential ({sequentialRatio:pct})',
    },
    recommendations: {},
    compat: { drishti: 'P12', marks: [] },
  },
  run(ctx) {
    runSequentialAccess(ctx, 'read');
  },
});
