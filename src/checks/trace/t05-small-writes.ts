import { defineTraceCheck } from './define.js';
import { reportSmallRequests } from './families.js';

/** T05: most writes of a flagged record are smaller than small_bytes. */
export default defineTraceCheck({
  meta: {
    code: 'T05',
    slug: 'small-writes',
    title: 'Writes are large',
    failureTitle: 'Most writes are small',
    description:
      'Every request pays a fixed cost (a system call, a round trip to the file servers, a lock); small writes pay it for ' +
      'little data, and on shared files they also fight over the same locks.',
    panel: 'OPERATIONS',
    problem: 'small-writes',
    options: {
      share: { knob: 'trace_small_share', description: "Share of a record's writes below small_bytes above which its writes are small." },
      minOps: { knob: 'trace_min_ops', description: 'Writes a record needs at least.' },
      smallBytes: { knob: 'small_bytes', description: 'Request size under which a write is small (`--small-size`).' },
    },
    messages: {
      finding:
        'More than {limit:pct} of the writes are smaller than {smallBytes:bytes} in {records} flagged record(s); the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds} ({small} of their {ops} writes are small)',
      record: '{record}: {smallShare:pct} of {ops} writes are smaller than {smallBytes:bytes} (average {avg:bytes})',
    },
    recommendations: {
      buffer: { text: 'Write in larger requests: buffer output in memory and flush it in blocks of at least the file-system stripe size' },
      collective: { text: 'With MPI-IO or HDF5, use collective writes so that aggregators turn many small requests into a few large ones', advises: 'collective-writes' },
    },
  },
  run(ctx) {
    reportSmallRequests(ctx, 'write', ['buffer', 'collective']);
  },
});
