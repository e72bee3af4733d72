import { defineTraceCheck, reportFlagged } from './define.js';

/** T09: sync calls (fsync, fdatasync, MPI_File_sync…) take a large share of a flagged record's I/O time. */
export default defineTraceCheck({
  meta: {
    code: 'T09',
    slug: 'fsync-heavy',
    title: 'Sync calls take little time',
    failureTitle: 'Sync calls take a large part of the I/O time',
    description:
      'A sync waits until the data is on stable storage and stops the write-behind that makes writes cheap; syncing ' +
      'often turns every write into a synchronous one.',
    panel: 'OPERATIONS',
    problem: 'excessive-fsync',
    options: { share: { knob: 'trace_sync_time_share', description: "Sync share of a record's I/O time above which it syncs too much." } },
    messages: {
      finding:
        'Sync calls take more than {limit:pct} of the I/O time of {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}, {syncShare:pct} of their time in {syncOps} sync calls',
      record: '{record}: {ops} sync calls take {syncShare:pct} of its I/O time',
    },
    recommendations: {
      fewer: { text: 'Sync once per output phase (or let close do it) instead of after every write' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.sync_ops > 0 && m.sync_time_share > o.share,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ ops: m.sync_ops, syncShare: m.sync_time_share }),
      summary: (s) => ({ limit: o.share, syncOps: s.sync_ops, syncShare: s.time > 0 ? s.sync_time / s.time : 0 }),
      cost: (s) => ({ seconds: s.sync_time }),
      evidence: (s) => [{ name: 'syncSeconds', value: s.sync_time, unit: 'seconds', source: 'sync_time summed over the records of the costing view' }],
      recommendations: ['fewer'],
    });
  },
});
