import { defineTraceCheck, reportFlagged } from './define.js';

/** T08: a flagged file record (views whose last dimension is the file) is accessed by many processes. */
export default defineTraceCheck({
  meta: {
    code: 'T08',
    slug: 'shared-file',
    title: 'Files are not contended',
    failureTitle: 'Many processes access the same file',
    description:
      'Processes writing or reading one file contend for its locks and for the few servers that hold its stripes; ' +
      'without collective I/O or matching striping, a shared file serialises them.',
    panel: 'OPERATIONS',
    problem: 'shared-file-contention',
    options: { procs: { knob: 'trace_shared_file_procs', description: 'Processes on one file from which it is contended.' } },
    messages: {
      finding:
        '{records} flagged file record(s) are accessed by {minProcs} or more processes each; the records of the {view} view among them hold {share:pct} of the time in traced calls and cost {seconds:seconds}',
      record: '{record}: {procs} processes access this file',
    },
    recommendations: {
      collective: { text: 'Use collective I/O (MPI-IO, HDF5 collective transfers) so that a few aggregators access the file instead of every process', advises: 'collective-io' },
      stripe: { text: "On Lustre, stripe the shared file over many OSTs (lfs setstripe) and align each process's requests to stripe boundaries", advises: 'striping' },
    },
  },
  run(ctx) {
    const o = ctx.options;
    reportFlagged(ctx, {
      where: (m, r) => r.dims[r.dims.length - 1] === 'file' && r.key.file !== '<no file>' && m.nprocs >= o.procs,
      finding: 'finding',
      detail: 'record',
      detailData: (m) => ({ procs: m.nprocs }),
      // Contention is a part of the records' data time at most: a bound.
      cost: (s) => ({ seconds: s.data_time, basis: 'bound' }),
      summary: () => ({ minProcs: o.procs }),
      recommendations: ['collective', 'stripe'],
    });
  },
});
