import type { CheckContext } from '../types.js';
import { WORDS, type Direction } from './direction.js';
import { smallRequestDetails } from './small-requests.js';

/**
 * P15/P16: many small requests to shared files. "Shared" means Darshan's reduced records (rank −1, a file opened
 * by every rank); files opened by a subset of ranks keep per-rank records and are not counted (SPEC §3).
 */
export function runSharedSmallRequests(ctx: CheckContext<'ratio' | 'absolute', 'many' | 'file', 'collective'>, dir: Direction): void {
  const w = WORDS[dir];
  const s = ctx.fact('posix.shared');
  const total = dir === 'read' ? s.reads : s.writes;
  const small = dir === 'read' ? s.smallReads : s.smallWrites;
  const { ratio, absolute } = ctx.options;
  if (!(total && small / total > ratio && small > absolute)) return;
  const per = dir === 'read' ? s.smallReadsPerRecord : s.smallWritesPerRecord;
  const details = smallRequestDetails(ctx, s.ids, per, total, ratio);
  ctx.report({
    messageId: 'many',
    data: { count: small, ratio: small / total },
    evidence: [
      { name: `sharedSmall${w.Op}s`, value: small, unit: 'count', source: 'POSIX_SIZE_* ≤ 1 MiB of rank −1 records' },
      { name: `shared${w.Op}s`, value: total, unit: 'count', source: dir === 'read' ? 'POSIX_READS of rank −1 records' : 'POSIX_WRITES of rank −1 records' },
    ],
    details,
    recommendations: ['collective'],
  });
}
