import { defineCheck } from '../define-check.js';
import { runStragglers } from '../families/stragglers.js';

/** P19: time imbalance between the slowest and fastest rank of shared files (HIGH). */
export default defineCheck({
  meta: {
    code: 'P19',
    slug: 'shared-file-time-stragglers',
    title: 'Ranks share the time of shared files evenly',
    failureTitle: 'Time imbalance between ranks on shared files',
    description:
      'On a shared file, the slowest rank spent far longer in I/O than the fastest one: the others wait for it at ' +
      'the next synchronisation.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'time-imbalance',
    requires: ['posix.shared'],
    options: {
      ratio: { knob: 'imbalance_stragglers', description: '|slowest − fastest rank time| / (read + write + metadata time), above which a file is listed.' },
    },
    messages: {
      stragglers: 'Time imbalance between the slowest and the fastest rank on {files} shared file(s)',
      file: '{ratio:pct} imbalance on "{file}"',
    },
    recommendations: {
      balance: { text: 'Give every rank a similar share of the data it reads or writes' },
      distribute: { text: 'Spread the file over more storage targets so no rank waits on a busy one' },
      striping: { text: 'Tune the stripe count and size of the file (or its directory) to the access size and the number of ranks', advises: 'striping', snippet: 'lustre-striping.sh' },
    },
    compat: { drishti: 'P19' },
  },
  run(ctx) {
    runStragglers(ctx, 'time');
  },
});
