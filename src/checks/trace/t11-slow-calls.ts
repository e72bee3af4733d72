import type { Metrics } from '../../trace/views.js';
import { defineTraceCheck, reportFlagged } from './define.js';

/** T11: the reads and writes of a flagged record take far longer than their bytes need at the trace's own bandwidth. */
export default defineTraceCheck({
  meta: {
    code: 'T11',
    slug: 'slow-calls',
    title: 'Calls take the time their bytes need',
    failureTitle: 'Calls wait far longer than their bytes need',
    description:
      'A data call that takes much longer than moving its bytes at the bandwidth the same trace reaches elsewhere is ' +
      'waiting, not moving data: contention on the file system, lock conflicts on a shared file, synchronous writes ' +
      'or an overloaded server. Large requests that simply take their time are not slow. What the calls took beyond ' +
      'their bytes at that bandwidth is an upper bound of what they could save: the finding is at most WARN.',
    panel: 'OPERATIONS',
    problem: 'slow-calls',
    options: {
      seconds: { knob: 'trace_slow_call_seconds', description: 'Mean seconds per read/write call above which the calls may be slow.' },
      factor: { knob: 'trace_slow_bandwidth_factor', description: "How many times below the trace's own data bandwidth a record's calls move their bytes to be slow." },
    },
    messages: {
      finding:
        'Reads and writes take more than {limitMs:fixed2} ms on average and move their bytes more than {factor} times slower than the trace does overall ({bandwidth:bytes}/s) in {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds} beyond what their bytes need ({meanMs:fixed2} ms per call over their {ops} call(s))',
      record: '{record}: the mean read/write takes {meanMs:fixed2} ms (over {ops} call(s)) at {recordBandwidth:bytes}/s',
    },
    recommendations: {
      contention: { text: 'Look for what the calls wait for at that time: other jobs on the file system, a busy server, sync calls or lock conflicts on shared files' },
      fewer: { text: 'Issue fewer, larger requests so that the fixed cost of each call is paid less often' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    // The trace's own data bandwidth: bytes over time of every analysed read and write (the first one-dimension view
    // holds each call once).
    const all = ctx.views().views.find((v) => v.dims.length === 1);
    let bytes = 0, time = 0;
    for (const r of all?.records ?? []) {
      bytes += r.metrics.data_bytes;
      time += r.metrics.data_time;
    }
    if (!(bytes > 0 && time > 0)) return;
    const bandwidth = bytes / time;
    const beyond = (m: Metrics) => Math.max(0, m.data_time - m.data_bytes / bandwidth);
    reportFlagged(ctx, {
      where: (m) => m.data_ops > 0 && m.data_time / m.data_ops > o.seconds && m.data_bytes * o.factor < m.data_time * bandwidth,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ meanMs: (m.data_time / m.data_ops) * 1e3, ops: m.data_ops, recordBandwidth: m.data_time > 0 ? m.data_bytes / m.data_time : 0 }),
      // What the calls took beyond their bytes at the trace's bandwidth: what they would save if that rate were
      // reachable for them, an estimate (a bound) of a symptom whose cause lies elsewhere, so at most WARN.
      cost: (_s, records) => ({ seconds: records.reduce((a, r) => a + beyond(r.metrics), 0), basis: 'bound' }),
      summary: (s) => ({ limitMs: o.seconds * 1e3, factor: o.factor, bandwidth, meanMs: s.data_ops > 0 ? (s.data_time / s.data_ops) * 1e3 : 0, ops: s.data_ops }),
      recommendations: ['contention', 'fewer'],
    });
  },
});
