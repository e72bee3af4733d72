import { defineCheck } from '../define-check.js';
import { runOperationIntensity } from '../families/operation-intensity.js';

/** P02: more POSIX read operations than writes (INFO). */
export default defineCheck({
  meta: {
    code: 'P02',
    slug: 'read-operation-intensity',
    title: 'Reads and writes are balanced in operations',
    failureTitle: 'Read-intensive job (operations)',
    description:
      "Most of the job's POSIX operations are reads. This is an observation that frames the other insights (a " +
      'read-intensive job gains most from tuning its read path), not a problem in itself.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'job',
    level: 'INFO',
    problem: 'io-intensity',
    requires: ['posix.totals'],
    options: {
      imbalanceRatio: { knob: 'imbalance_operations', description: 'Minimum |W − R| / (R + W) of POSIX operations.' },
    },
    messages: {
      intensive: 'The job is read-intensive by operation count: {writeRatio:pct} of the POSIX operations are writes and {readRatio:pct} reads',
    },
    recommendations: {},
    compat: { drishti: 'P02', marks: [] },
  },
  run(ctx) {
    runOperationIntensity(ctx, 'read', 'operations');
  },
});
