import { defineCheck } from '../define-check.js';
import { runSharedSmallRequests } from '../families/shared-small-requests.js';

/** P16: many small writes to shared files (HIGH). */
export default defineCheck({
  meta: {
    code: 'P16',
    slug: 'shared-file-small-writes',
    title: 'Shared files get large writes',
    failureTitle: 'Many small writes to shared files',
    description:
      'Many ranks issuing small writes to the same file contend for its locks and servers. Collective MPI-IO lets a ' +
      'few aggregator ranks turn them into large contiguous requests.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'small-writes',
    requires: ['posix.shared'],
    options: {
      ratio: { knob: 'small_requests', description: 'Minimum share of small writes among shared-file writes.' },
      absolute: { knob: 'small_requests_absolute', description: 'Minimum number of small shared-file writes.' },
    },
    messages: {
      many: '{count} small write requests to shared files (up to a mebibyte each), {ratio:pct} of all shared-file writes',
      file: '{count} small write requests ({ratio:pct} of shared-file writes) go to "{file}"',
    },
    recommendations: {
      collective: { text: 'Merge the small writes into large contiguous ones with collective MPI-IO (MPI_File_write_all), letting aggregators do the I/O', advises: 'collective-writes', snippet: 'mpi-io-collective-write.c' },
    },
    compat: { drishti: 'P16' },
  },
  run(ctx) {
    runSharedSmallRequests(ctx, 'write');
  },
});
