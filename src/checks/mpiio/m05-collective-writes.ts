import { defineCheck } from '../define-check.js';
import { runCollectiveUse } from '../families/collective.js';

/** M05: MPI-IO writes use collective calls (OK). */
export default defineCheck({
  meta: {
    code: 'M05',
    slug: 'collective-writes',
    title: 'MPI-IO writes use collective calls',
    failureTitle: 'MPI-IO writes use collective calls',
    description: 'The job writes through collective MPI-IO calls, which let MPI-IO aggregate requests.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'OK',
    problem: 'no-collective',
    requires: ['mpiio.totals'],
    options: {},
    messages: { collective: 'MPI-IO writes use {count} ({ratio:pct}) collective operations' },
    recommendations: {},
    compat: { drishti: 'M05' },
  },
  run(ctx) {
    runCollectiveUse(ctx, 'write');
  },
});
