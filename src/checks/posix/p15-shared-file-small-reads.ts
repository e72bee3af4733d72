import { defineCheck } from '../define-check.js';
import { runSharedSmallRequests } from '../families/shared-small-requests.js';

/** P15: many small reads to shared files (HIGH). */
export default defineCheck({
  meta: {
    code: 'P15',
    slug: 'shared-file-small-reads',
    title: 'Shared files get large reads',
    failureTitle: 'Many small reads to shared files',
    description:
      'Many ranks issuing small reads to the same file contend for its locks and servers. Collective MPI-IO lets a ' +
      'few aggregator ranks turn them into large contiguous requests.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'small-reads',
    requires: ['posix.shared'],
    options: {
      ratio: { knob: 'small_requests', description: 'Minimum share of small reads among shared-file reads.' },
      absolute: { knob: 'small_requests_absolute', description: 'Minimum number of small shared-file reads.' },
    },
    messages: {
      many: '{count} small read requests to shared files (up to a mebibyte each), {ratio:pct} of all shared-file reads',
      file: '{count} small read requests ({ratio:pct} of shared-file reads) go to "{file}"',
    },
    recommendations: {
      collective: { text: 'Merge the small reads into large contiguous ones with collective MPI-IO (MPI_File_read_all), letting aggregators do the I/O', advises: 'collective-reads', snippet: 'mpi-io-collective-read.c' },
    },
    compat: { drishti: 'P15' },
  },
  run(ctx) {
    runSharedSmallRequests(ctx, 'read');
  },
});
