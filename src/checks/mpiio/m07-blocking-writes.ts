import { defineCheck } from '../define-check.js';
import { runNonBlocking } from '../families/non-blocking.js';

/** M07: no non-blocking MPI-IO writes (WARN). */
export default defineCheck({
  meta: {
    code: 'M07',
    slug: 'blocking-writes',
    title: 'MPI-IO writes overlap with computation',
    failureTitle: 'MPI-IO writes are all blocking',
    description:
      "Every MPI-IO write blocks the rank until it completes. Non-blocking calls (or HDF5's asynchronous VOL) let " +
      'computation or communication proceed while the I/O is in flight.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'WARN',
    problem: 'blocking-io',
    requires: ['mpiio.totals'],
    options: { overlap: { knob: 'overlap_io_share', description: 'Share of the run time in I/O from which the default mode makes this suggestion (below it there is little I/O time to hide).' } },
    messages: { blocking: 'Non-blocking (asynchronous) writes could hide I/O time: no non-blocking MPI-IO writes' },
    recommendations: {
      asyncVol: { text: 'The job uses HDF5: the asynchronous VOL connector (github.com/hpc-io/vol-async) runs writes in a background thread', snippet: 'hdf5-vol-async-write.c' },
      nonBlocking: { text: 'Start writes with MPI_File_iwrite (or the split collective _begin/_end calls) and wait for them only when the data is needed', advises: 'non-blocking-writes', snippet: 'mpi-io-iwrite.c' },
    },
    compat: {
      drishti: 'M07',
      marks: [],
      differences: [
        { id: 'worth-overlapping', description: 'The default mode makes the suggestion (INFO, with the blocking calls\' time as what it could save at most) only when the job spends at least overlap_io_share of its run time in I/O; it is a way to hide time, not a problem.' },
        { id: 'needs-operations', description: 'Drishti fires whenever the MPI-IO module is present, even for a job that never writes through MPI-IO; the default mode requires MPI-IO writes.' },
      ],
    },
  },
  run(ctx) {
    runNonBlocking(ctx, 'write');
  },
});
