import { defineTraceCheck } from './define.js';
import { reportSmallRequests } from './families.js';

/** T04: most reads of a flagged record are smaller than small_bytes. */
export default defineTraceCheck({
  meta: {
    code: 'T04',
    slug: 'small-reads',
    title: 'Reads are large',
    failureTitle: 'Most reads are small',
    description:
      'Every request pays a fixed cost (a system call, a round trip to the file servers, a lock); small requests pay it ' +
      'for little data, so a record made of them spends its time in overheads rather than in moving bytes.',
    panel: 'OPERATIONS',
    problem: 'small-reads',
    options: {
      share: { knob: 'trace_small_share', description: "Share of a record's reads below small_bytes above which its reads are small." },
      minOps: { knob: 'trace_min_ops', description: 'Reads a record needs at least.' },
      smallBytes: { knob: 'small_bytes', description: 'Request size under which a read is small (`--small-size`).' },
    },
    messages: {
      finding:
        'More than {limit:pct} of the reads are smaller than {smallBytes:bytes} in {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds} ({small} of their {ops} reads are small)',
      record: '{record}: {smallShare:pct} of {ops} reads are smaller than {smallBytes:bytes} (average {avg:bytes})',
    },
    recommendations: {
      larger: { text: 'Read in larger requests: batch consecutive small reads, or read whole blocks and slice them in memory' },
      collective: { text: 'With MPI-IO, use collective reads so that aggregators turn many small requests into a few large ones', advises: 'collective-reads' },
    },
  },
  run(ctx) {
    reportSmallRequests(ctx, 'read', ['larger', 'collective']);
  },
});
