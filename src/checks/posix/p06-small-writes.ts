import { defineCheck } from '../define-check.js';
import { runSmallRequests } from '../families/small-requests.js';

/** P06: many small POSIX writes (HIGH). */
export default defineCheck({
  meta: {
    code: 'P06',
    slug: 'small-writes',
    title: 'POSIX writes are mostly large',
    failureTitle: 'Many small POSIX writes',
    description:
      'Each POSIX write costs a system call and, on a parallel file system, at least one round trip to a server. ' +
      'Many writes of at most 1 MiB spend more time in latency than in moving data.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'small-writes',
    requires: ['posix.totals', 'posix.byFile'],
    options: {
      ratio: { knob: 'small_requests', description: 'Minimum share of small writes among all POSIX writes.' },
      absolute: { knob: 'small_requests_absolute', description: 'Minimum number of small writes.' },
    },
    messages: {
      many: '{count} small write requests (up to a mebibyte each), {ratio:pct} of all POSIX writes',
      file: '{count} small write requests ({ratio:pct} of all writes) go to "{file}"',
    },
    recommendations: {
      coalesce: { text: 'Aggregate small writes into fewer, larger, contiguous requests (buffer in memory, then write in large blocks)' },
      collective: { text: 'The job already uses MPI-IO: switch to collective writes (MPI_File_write_all / MPI_File_write_at_all) so that aggregators merge requests', advises: 'collective-writes', snippet: 'mpi-io-collective-write.c' },
      adoptMpiio: { text: 'Use MPI-IO (or a library over it such as HDF5 or PnetCDF) to get collective I/O, which merges small requests across ranks' },
    },
    compat: { drishti: 'P06', marks: ['small_requests_absolute'] },
  },
  run(ctx) {
    runSmallRequests(ctx, 'write');
  },
});
