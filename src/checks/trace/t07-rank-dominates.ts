import { defineTraceCheck, reportFlagged } from './define.js';

/** T07: one process of a flagged record (of two or more) spends most of its I/O time. */
export default defineTraceCheck({
  meta: {
    code: 'T07',
    slug: 'rank-dominates',
    title: 'No single process dominates the I/O time',
    failureTitle: 'One process spends most of the I/O time',
    description:
      'When one process does most of the I/O, the others wait for it and the job uses one client\'s bandwidth where it ' +
      'could use many.',
    panel: 'OPERATIONS',
    problem: 'time-imbalance',
    source: 'builtin',
    options: { share: { knob: 'trace_dominant_time_share', description: "Share of a record's I/O time of its busiest process above which one process dominates." } },
    messages: {
      finding:
        'One process spends more than {limit:pct} of the I/O time in {records} flagged record(s) with two or more processes; the records of the {view} view among them account for {share:pct} of the I/O time',
      record: '{record}: one of {procs} processes spends {topShare:pct} of its I/O time',
    },
    recommendations: {
      spread: { text: 'Spread the I/O over the processes, or over a few aggregators, instead of funnelling it through one process' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.nprocs >= 2 && m.top_proc_time_share > o.share,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ procs: m.nprocs, topShare: m.top_proc_time_share }),
      summary: () => ({ limit: o.share }),
      recommendations: ['spread'],
    });
  },
});
