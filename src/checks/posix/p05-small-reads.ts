import { defineCheck } from '../define-check.js';
import { runSmallRequests } from '../families/small-requests.js';

/** P05: many small POSIX reads (HIGH). */
export default defineCheck({
  meta: {
    code: 'P05',
    slug: 'small-reads',
    title: 'POSIX reads are mostly large',
    failureTitle: 'Many small POSIX reads',
    description:
      'Each POSIX read costs a system call and, on a parallel file system, at least one round trip to a server. Many ' +
      'reads of at most 1 MiB spend more time in latency than in moving data.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'small-reads',
    requires: ['posix.totals', 'posix.byFile'],
    options: {
      ratio: { knob: 'small_requests', description: 'Minimum share of small reads among all POSIX reads.' },
      absolute: { knob: 'small_requests_absolute', description: 'Minimum number of small reads.' },
    },
    messages: {
      many: '{count} small read requests (up to a mebibyte each), {ratio:pct} of all POSIX reads',
      file: '{count} small read requests ({ratio:pct} of all reads) go to "{file}"',
    },
    recommendations: {
      coalesce: { text: 'Aggregate small reads into fewer, larger, contiguous requests (buffer in memory, then read in large blocks)' },
      collective: { text: 'The job already uses MPI-IO: switch to collective reads (MPI_File_read_all / MPI_File_read_at_all) so that aggregators merge requests', advises: 'collective-reads', snippet: 'mpi-io-collective-read.c' },
      adoptMpiio: { text: 'Use MPI-IO (or a library over it such as HDF5 or PnetCDF) to get collective I/O, which merges small requests across ranks' },
    },
    compat: { drishti: 'P05', marks: ['small_requests_absolute'] },
  },
  run(ctx) {
    runSmallRequests(ctx, 'read');
  },
});
