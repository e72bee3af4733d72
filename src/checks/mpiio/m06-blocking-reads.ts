import { defineCheck } from '../define-check.js';
import { runNonBlocking } from '../families/non-blocking.js';

/** M06: no non-blocking MPI-IO reads (WARN). */
export default defineCheck({
  meta: {
    code: 'M06',
    slug: 'blocking-reads',
    title: 'MPI-IO reads overlap with computation',
    failureTitle: 'MPI-IO reads are all blocking',
    description:
      "Every MPI-IO read blocks the rank until it completes. Non-blocking calls (or HDF5's asynchronous VOL) let " +
      'computation or communication proceed while the I/O is in flight.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'WARN',
    problem: 'blocking-io',
    requires: ['mpiio.totals'],
    options: { overlap: { knob: 'overlap_io_share', description: 'Share of the run time in I/O from which the default mode makes this suggestion (below it there is little I/O time to hide).' } },
    messages: { blocking: 'Non-blocking (asynchronous) reads could hide I/O time: no non-blocking MPI-IO reads' },
    recommendations: {
      asyncVol: { text: 'The job uses HDF5: the asynchronous VOL connector (github.com/hpc-io/vol-async) runs reads in a background thread', snippet: 'hdf5-vol-async-read.c' },
      nonBlocking: { text: 'Start reads with MPI_File_iread (or the split collective _begin/_end calls) and wait for them only when the data is needed', advises: 'non-blocking-reads', snippet: 'mpi-io-iread.c' },
    },
    compat: {
      drishti: 'M06',
      marks: [],
      differences: [
        { id: 'worth-overlapping', description: 'The default mode makes the suggestion (INFO, with the blocking calls\' time as what it could save at most) only when the job spends at least overlap_io_share of its run time in I/O; it is a way to hide time, not a problem.' },
        { id: 'needs-operations', description: 'Drishti fires whenever the MPI-IO module is present, even for a job that never reads through MPI-IO; the default mode requires MPI-IO reads.' },
      ],
    },
  },
  run(ctx) {
    runNonBlocking(ctx, 'read');
  },
});
