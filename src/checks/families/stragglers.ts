import type { CheckContext, DetailInput } from '../types.js';

/**
 * P18/P19: stragglers on shared files — the slowest rank moved many more bytes (P18) or spent much more time (P19)
 * than the fastest, relative to the file's total.
 */
export function runStragglers(ctx: CheckContext<'ratio', 'stragglers' | 'file', 'balance' | 'distribute' | 'striping'>, kind: 'data' | 'time'): void {
  const isData = kind === 'data';
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
}
