import { defineCheck } from '../define-check.js';
import { runFirstOpRandomAccess } from '../families/first-op-random-access.js';

/** D16: random POSIX writes, each rank's first request not counted (default mode; supersedes P13). */
export default defineCheck({
  meta: {
    code: 'D16',
    slug: 'random-writes',
    title: 'POSIX writes follow the file order',
    failureTitle: 'Random POSIX writes',
    description:
      'Requests that jump backwards or around a file defeat read-ahead and write-behind and turn streaming into ' +
      'seeks; on a parallel file system each jump can hit another server.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'random-write',
    requires: ['job'],
    modes: ['default'],
    supersedes: ['P13'],
    options: {
      ratio: { knob: 'random_operations', description: 'Share of random writes above which access is random.' },
      min: { knob: 'random_min', description: 'Minimum number of random writes.' },
      bytes: { knob: 'random_bytes_min', description: 'Bytes moved by random writes from which fewer than the minimum number suffice.' },
      large: { knob: 'large_piece_bytes', description: 'Mean write size of the files with random writes from which the finding is WARN rather than HIGH.' },
    },
    messages: {
      random: '{count} of {total} POSIX writes ({ratio:pct}) go backwards or jump around the file',
      file: `{count} random writes ({ratio:pct} of the file's) on "{file}"`,
    },
    recommendations: {
      order: { text: 'Sort or batch requests by offset before issuing them, so each rank walks its part of the file forwards' },
      collective: { text: 'With MPI-IO, describe the pattern with a file view and use collective writes: ROMIO reorders the pieces into large contiguous requests', advises: 'collective-writes', snippet: 'mpi-io-collective-write.c' },
    },
    compat: {
      differences: [
        { id: 'first-request', description: "Drishti counts each rank's first request on a file as random; this check does not, and needs `random_min` random requests instead of 1000." },
      ],
    },
  },
  run(ctx) {
    runFirstOpRandomAccess(ctx, 'write');
  },
});
