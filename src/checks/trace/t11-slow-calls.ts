import { defineTraceCheck, reportFlagged } from './define.js';

/** T11: the calls of a flagged record are slow on average. */
export default defineTraceCheck({
  meta: {
    code: 'T11',
    slug: 'slow-calls',
    title: 'Calls are quick',
    failureTitle: 'Calls are slow on average',
    description:
      'A high mean latency per call points at waiting rather than at moving data: contention on the file system, ' +
      'lock conflicts, synchronous writes or an overloaded metadata server.',
    panel: 'OPERATIONS',
    problem: 'slow-calls',
    source: 'builtin',
    options: { seconds: { knob: 'trace_slow_call_seconds', description: 'Mean seconds per call above which the calls are slow.' } },
    messages: {
      finding:
        'Calls take more than {limitMs:fixed2} ms on average in {records} flagged record(s); the records of the {view} view among them account for {share:pct} of the I/O time ({meanMs:fixed2} ms per call over their {ops} call(s))',
      record: '{record}: the mean call takes {meanMs:fixed2} ms (over {ops} call(s))',
    },
    recommendations: {
      contention: { text: 'Look for what the calls wait for at that time: other jobs on the file system, a busy metadata server, sync calls or lock conflicts on shared files' },
      fewer: { text: 'Issue fewer, larger requests so that the fixed cost of each call is paid less often' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.ops > 0 && m.time / m.ops > o.seconds,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ meanMs: (m.time / m.ops) * 1e3, ops: m.ops }),
      summary: (s) => ({ limitMs: o.seconds * 1e3, meanMs: s.ops > 0 ? (s.time / s.ops) * 1e3 : 0, ops: s.ops }),
      recommendations: ['contention', 'fewer'],
    });
  },
});
