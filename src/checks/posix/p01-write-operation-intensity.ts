import { defineCheck } from '../define-check.js';
import { runOperationIntensity } from '../families/operation-intensity.js';

/** P01: more POSIX write operations than reads (INFO). */
export default defineCheck({
  meta: {
    code: 'P01',
    slug: 'write-operation-intensity',
    title: 'Reads and writes are balanced in operations',
    failureTitle: 'Write-intensive job (operations)',
    description:
      "Most of the job's POSIX operations are writes. This is an observation that frames the other insights (a " +
      'write-intensive job gains most from tuning its write path), not a problem in itself.',
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
      intensive: 'The job is write-intensive by operation count: {writeRatio:pct} of the POSIX operations are writes and {readRatio:pct} reads',
    },
    recommendations: {},
    compat: { drishti: 'P01', marks: [] },
  },
  run(ctx) {
    runOperationIntensity(ctx, 'write', 'operations');
  },
});
