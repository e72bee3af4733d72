import { defineCheck } from '../define-check.js';
import { runStragglers } from '../families/stragglers.js';

/** P18: data imbalance between the slowest and fastest rank of shared files (HIGH). */
export default defineCheck({
  meta: {
    code: 'P18',
    slug: 'shared-file-data-stragglers',
    title: 'Ranks share the data of shared files evenly',
    failureTitle: 'Data imbalance between ranks on shared files',
    description:
      'On a shared file, the slowest rank moved far more bytes than the fastest one: the others wait for it at the ' +
      'next synchronisation.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'rank-imbalance',
    requires: ['posix.shared'],
    options: {
      ratio: { knob: 'imbalance_stragglers', description: '|slowest − fastest rank bytes| / bytes moved, above which a file is listed.' },
    },
    messages: {
      stragglers: 'Data imbalance between the slowest and the fastest rank on {files} shared file(s)',
      file: '{ratio:pct} imbalance on "{file}"',
    },
    recommendations: {
      balance: { text: 'Give every rank a similar share of the data it reads or writes' },
      distribute: { text: 'Spread the file over more storage targets so no rank waits on a busy one' },
      striping: { text: 'Tune the stripe count and size of the file (or its directory) to the access size and the number of ranks', advises: 'striping', snippet: 'lustre-striping.sh' },
    },
    compat: { drishti: 'P18' },
  },
  run(ctx) {
    runStragglers(ctx, 'data');
  },
});
