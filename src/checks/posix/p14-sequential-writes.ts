import { defineCheck } from '../define-check.js';
import { runSequentialAccess } from '../families/random-access.js';

/** P14: POSIX writes are mostly consecutive or sequential (OK). */
export default defineCheck({
  meta: {
    code: 'P14',
    slug: 'sequential-writes',
    title: 'POSIX writes are mostly consecutive or sequential',
    failureTitle: 'POSIX writes are mostly consecutive or sequential',
    description:
      "The job's POSIX writes mostly move forward through their files: the access pattern is friendly to caches and " +
      'striping.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'job',
    level: 'OK',
    problem: 'random-write',
    requires: ['posix.totals'],
    options: {
      ratio: { knob: 'random_operations', description: 'Share of random writes at or below which this observation is made.' },
      absolute: { knob: 'random_operations_absolute', description: 'Number of random writes at or below which this observation is made (either bound suffices).' },
    },
    messages: {
      sequential: 'POSIX writes are mostly consecutive ({consecutiveRatio:pct}) or sequential ({sequentialRatio:pct})',
    },
    recommendations: {},
    compat: { drishti: 'P14', marks: [] },
  },
  run(ctx) {
    runSequentialAccess(ctx, 'write');
  },
});
