import { defineCheck } from '../define-check.js';
import type { Check, DetailInput } from '../types.js';

/**
 * P18/P19: stragglers on shared files — the slowest rank moved many more bytes (P18) or spent much more time (P19)
 * than the fastest, relative to the file's total.
 */
export function stragglers(code: 'P18' | 'P19', kind: 'data' | 'time'): Check<'ratio', 'stragglers' | 'file', 'balance' | 'distribute' | 'striping'> {
  const isData = kind === 'data';
  return defineCheck({
    meta: {
      code,
      slug: isData ? 'shared-file-data-stragglers' : 'shared-file-time-stragglers',
      title: `Ranks share the ${isData ? 'data' : 'time'} of shared files evenly`,
      failureTitle: `${isData ? 'Data' : 'Time'} imbalance between ranks on shared files`,
      description: isData
        ? 'On a shared file, the slowest rank moved far more bytes than the fastest one: the others wait for it at the next synchronisation.'
        : 'On a shared file, the slowest rank spent far longer in I/O than the fastest one: the others wait for it at the next synchronisation.',
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'file',
      level: 'HIGH',
      problem: isData ? 'rank-imbalance' : 'time-imbalance',
      requires: ['posix.shared'],
      options: { ratio: { knob: 'imbalance_stragglers', description: isData ? '|slowest − fastest rank bytes| / bytes moved, above which a file is listed.' : '|slowest − fastest rank time| / (read + write + metadata time), above which a file is listed.' } },
      messages: {
        stragglers: `${isData ? 'Data' : 'Time'} imbalance between the slowest and the fastest rank on {files} shared file(s)`,
        file: `{ratio:pct} imbalance on "{file}"`,
      },
      recommendations: {
        balance: { text: 'Give every rank a similar share of the data it reads or writes' },
        distribute: { text: 'Spread the file over more storage targets so no rank waits on a busy one' },
        striping: { text: 'Tune the stripe count and size of the file (or its directory) to the access size and the number of ranks', snippet: 'lustre-striping.sh' },
      },
      compat: { drishti: code },
    },
    run(ctx) {
      const s = ctx.fact('posix.shared');
      const col = isData ? s.dataImbalance : s.timeImbalance;
      const details: DetailInput<'file'>[] = [];
      for (let i = 0; i < s.ids.length; i++) {
        if (col[i] > ctx.options.ratio) {
          const subject = ctx.file(s.ids[i]);
          details.push({ messageId: 'file', data: { ratio: col[i], file: subject.kind === 'file' ? subject.name : '' }, subject });
        }
      }
      if (!details.length) return;
      ctx.report({
        messageId: 'stragglers',
        data: { files: details.length },
        evidence: [{ name: 'files', value: details.length, unit: 'files', source: isData ? 'POSIX_SLOWEST_RANK_BYTES, POSIX_FASTEST_RANK_BYTES' : 'POSIX_F_SLOWEST_RANK_TIME, POSIX_F_FASTEST_RANK_TIME' }],
        details,
        recommendations: isData ? ['balance', 'striping'] : ['distribute', 'striping'],
      });
    },
  });
}
