import { defineCheck } from '../define-check.js';
import { runCollectiveUse } from '../families/collective.js';

/** M04: MPI-IO reads use collective calls (OK). */
export default defineCheck({
  meta: {
    code: 'M04',
    slug: 'collective-reads',
    title: 'MPI-IO reads use collective calls',
    failureTitle: 'MPI-IO reads use collective calls',
    description: 'The job reads through collective MPI-IO calls, which let MPI-IO aggregate requests.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'OK',
    problem: 'no-collective',
    requires: ['mpiio.totals'],
    options: {},
    messages: { collective: 'MPI-IO reads use {count} ({ratio:pct}) collective operations' },
    recommendations: {},
    compat: { drishti: 'M04' },
  },
  run(ctx) {
    runCollectiveUse(ctx, 'read');
  },
});
