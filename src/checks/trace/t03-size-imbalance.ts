import { busiestExtra, defineTraceCheck, reportFlagged } from './define.js';

/** T03: in a flagged record, the process moving the most bytes moves far more than the mean process. */
export default defineTraceCheck({
  meta: {
    code: 'T03',
    slug: 'size-imbalance',
    title: 'Bytes are spread evenly over the processes',
    failureTitle: 'Bytes are imbalanced across processes',
    description:
      'When one process moves many more bytes than the others, its requests set the length of the I/O phase while the ' +
      'other processes and their share of the file-system bandwidth sit idle.',
    panel: 'OPERATIONS',
    problem: 'rank-imbalance',
    options: { factor: { knob: 'trace_imbalance_factor', description: 'Bytes of the busiest process over the mean above which a record is imbalanced.' } },
    messages: {
      finding:
        'In {records} flagged record(s) with two or more processes, the process moving the most bytes moves more than {factor} times the mean; the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}',
      record: '{record}: the process moving the most bytes moves {imbalance:fixed2} times the mean of {procs} processes ({perProc:bytes} per process on average)',
    },
    recommendations: {
      balance: { text: 'Split the data evenly over the processes, or write through a few aggregators that each receive an equal part (MPI-IO collective buffering)' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.nprocs >= 2 && m.bytes > 0 && m.proc_bytes_imbalance > o.factor,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ procs: m.nprocs, imbalance: m.proc_bytes_imbalance, perProc: m.bytes / m.nprocs }),
      cost: (_s, records) => ({ seconds: busiestExtra(records), semantics: 'slowest' }),
      savings: (_s, _r, cost) => ({ kind: 'excess', seconds: cost.seconds, what: "the busiest process's time beyond an even split" }),
      summary: () => ({ factor: o.factor }),
      recommendations: ['balance'],
    });
  },
});
