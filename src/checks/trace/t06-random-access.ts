import { defineTraceCheck, reportFlagged } from './define.js';

/** T06: many reads (writes) of a flagged record start before the end of the previous read (write) of the same process on the same file. */
export default defineTraceCheck({
  meta: {
    code: 'T06',
    slug: 'random-access',
    title: 'Reads and writes are sequential',
    failureTitle: 'Reads and writes jump back and forth in the files',
    description:
      'Sequential access lets the file system read ahead and write behind; requests that go backwards defeat both, and ' +
      'on disks and striped file systems each jump costs a seek or a new server round trip.',
    panel: 'OPERATIONS',
    problem: 'random-access',
    options: {
      share: { knob: 'trace_random_share', description: "Share of a record's reads/writes with a known offset that go backwards above which its access is random." },
      minOps: { knob: 'trace_min_ops', description: 'Reads/writes with a known offset a record needs at least.' },
    },
    messages: {
      finding:
        'More than {limit:pct} of the reads/writes with a known offset go backwards in {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds} ({random} of their {ops} requests are random)',
      record: '{record}: {randomShare:pct} of {ops} reads/writes with a known offset start before the end of the previous one in the same direction by the same process',
    },
    recommendations: {
      sequential: { text: 'Access each file in offset order, or sort the requests by offset before issuing them' },
      collective: { text: 'With MPI-IO, describe the access pattern with a file view and collective calls so that the library reorders it', advises: 'collective-io' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m) => m.offset_ops >= o.minOps && m.random_share > o.share,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ randomShare: m.random_share, ops: m.offset_ops }),
      summary: (s) => ({ limit: o.share, random: s.random_ops, ops: s.offset_ops }),
      cost: (_s, records) => ({ seconds: records.reduce((a, r) => a + (r.metrics.offset_ops > 0 ? (r.metrics.data_time * r.metrics.random_ops) / r.metrics.offset_ops : 0), 0) }),
      evidence: (s) => [{ name: 'randomRequests', value: s.random_ops, unit: 'count', source: 'random_ops summed over the records of the costing view' }],
      recommendations: ['sequential', 'collective'],
    });
  },
});
