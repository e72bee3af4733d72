import { busiestExtra, defineTraceCheck, reportFlagged } from './define.js';

/** T02: in a flagged record, the busiest process issues far more operations than the mean process. */
export default defineTraceCheck({
  meta: {
    code: 'T02',
    slug: 'operation-imbalance',
    title: 'Operations are spread evenly over the processes',
    failureTitle: 'Operations are imbalanced across processes',
    description:
      'When one process issues many more requests than the others, the others wait for it at the next synchronisation: ' +
      'the I/O phase lasts as long as its slowest process.',
    panel: 'OPERATIONS',
    problem: 'rank-imbalance',
    options: { factor: { knob: 'trace_imbalance_factor', description: 'Operations of the busiest process over the mean above which a record is imbalanced.' } },
    messages: {
      finding:
        'In {records} flagged record(s) with two or more processes, the busiest process issues more than {factor} times the mean number of operations; the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}',
      record: '{record}: the busiest of {procs} processes issues {imbalance:fixed2} times the mean number of operations',
    },
    recommendations: {
      balance: { text: 'Give every process about the same number of requests, or let a few aggregator processes do the I/O collectively (MPI-IO collective calls)' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.nprocs >= 2 && m.proc_ops_imbalance > o.factor,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ procs: m.nprocs, imbalance: m.proc_ops_imbalance }),
      cost: (_s, records) => ({ seconds: busiestExtra(records), semantics: 'slowest' }),
      savings: (_s, _r, cost) => ({ kind: 'excess', seconds: cost.seconds, what: "the busiest process's time beyond an even split" }),
      summary: () => ({ factor: o.factor }),
      recommendations: ['balance'],
    });
  },
});
