import type { Subject } from '../../contract/index.js';
import type { CheckContext, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';

type Rec = 'coalesce' | 'collective' | 'adoptMpiio';

/**
 * P05/P06: many small POSIX requests. Small = Darshan's histogram bins up to 1 MiB (inclusive). Fires when
 * small/all > small_requests and small > small_requests_absolute; details list files whose small requests exceed
 * half the ratio threshold times all requests of that direction (Drishti's cut-off).
 */
export function runSmallRequests(ctx: CheckContext<'ratio' | 'absolute', 'many' | 'file', Rec>, dir: Direction): void {
  const w = WORDS[dir];
  const t = ctx.fact('posix.totals');
  const total = dir === 'read' ? t.reads : t.writes;
  const small = dir === 'read' ? t.smallReads : t.smallWrites;
  const { ratio, absolute } = ctx.options;
  if (!(small && small / total > ratio && small > absolute)) return;
  const f = ctx.fact('posix.byFile');
  const perFile = dir === 'read' ? f.smallReads : f.smallWrites;
  const details = smallRequestDetails(ctx, f.ids, perFile, total, ratio);
  const bins = dir === 'read' ? 'POSIX_SIZE_READ_0_100 … POSIX_SIZE_READ_100K_1M' : 'POSIX_SIZE_WRITE_0_100 … POSIX_SIZE_WRITE_100K_1M';
  ctx.report({
    messageId: 'many',
    data: { count: small, ratio: small / total },
    evidence: [
      { name: `small${w.Op}s`, value: small, unit: 'count', source: bins },
      { name: w.ops, value: total, unit: 'count', source: dir === 'read' ? 'POSIX_READS' : 'POSIX_WRITES' },
    ],
    details,
    recommendations: ['coalesce', ctx.hasModule('MPI-IO') ? 'collective' : 'adoptMpiio'],
  });
}

/**
 * Details of P05/P06 and P15/P16 (Drishti's cut-off): the files whose small requests exceed half the ratio threshold
 * times all requests of that direction.
 */
export function smallRequestDetails(ctx: { file(id: bigint): Subject }, ids: BigUint64Array, small: Float64Array, total: number, ratio: number): DetailInput<'file'>[] {
  const cut = (total * ratio) / 2;
  const details: DetailInput<'file'>[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (small[i] > cut) {
      const subject = ctx.file(ids[i]);
      details.push({ messageId: 'file', data: { count: small[i], ratio: small[i] / total, file: subject.kind === 'file' ? subject.name : '' }, subject });
    }
  }
  return details;
}
