import { defineCheck } from '../define-check.js';
import { runOperationIntensity } from '../families/operation-intensity.js';

/** P04: more POSIX bytes read than written (INFO). */
export default defineCheck({
  meta: {
    code: 'P04',
    slug: 'read-volume-intensity',
    title: 'Reads and writes are balanced in bytes',
    failureTitle: 'Read-intensive job (bytes)',
    description:
      "Most of the job's POSIX bytes are reads. This is an observation that frames the other insights (a " +
      'read-intensive job gains most from tuning its read path), not a problem in itself.',
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
      intensive: 'The job is read-intensive by volume: {writeRatio:pct} of the POSIX bytes are written and {readRatio:pct} read',
    },
    recommendations: {},
    compat: { drishti: 'P04', marks: [] },
  },
  run(ctx) {
    runOperationIntensity(ctx, 'read', 'bytes');
  },
});
