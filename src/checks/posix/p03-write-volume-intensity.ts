import { defineCheck } from '../define-check.js';
import { runOperationIntensity } from '../families/operation-intensity.js';

/** P03: more POSIX bytes written than read (INFO). */
export default defineCheck({
  meta: {
    code: 'P03',
    slug: 'write-volume-intensity',
    title: 'Reads and writes are balanced in bytes',
    failureTitle: 'Write-intensive job (bytes)',
    description:
      "Most of the job's POSIX bytes are writes. This is an observation that frames the other insights (a " +
      'write-intensive job gains most from tuning its write path), not a problem in itself.',
    panel: 'METADATA',
    layer: 'POSIX',
    scope: 'job',
    level: 'INFO',
    problem: 'io-intensity',
    requires: ['posix.totals'],
    options: {
      imbalanceRatio: { knob: 'imbalance_operations', description: 'Minimum |W − R| / (R + W) of POSIX bytes.' },
    },
    messages: {
      intensive: 'The job is write-intensive by volume: {writeRatio:pct} of the POSIX bytes are written and {readRatio:pct} read',
    },
    recommendations: {},
    compat: { drishti: 'P03', marks: [] },
  },
  run(ctx) {
    runOperationIntensity(ctx, 'write', 'bytes');
  },
});
