import type { CheckContext, DetailInput } from '../types.js';
import type { Direction } from './direction.js';
import { modelOf, rowsHolding } from './diagnosis-common.js';
import { fileRow } from '../../facts/time-model.js';

/**
 * P21/P22: files accessed through per-rank records (not Darshan-shared) where ranks moved very different amounts:
 * (max − min) / max of per-rank bytes > imbalance_size.
 */
export function runRankSpread(ctx: CheckContext<'ratio', 'imbalanced' | 'file', 'balance' | 'striping' | 'noFill' | 'collective'>, dir: Direction): void {
  const s = ctx.fact('posix.rankSpread');
  const mx = dir === 'read' ? s.bytesReadMax : s.bytesWrittenMax;
  const mn = dir === 'read' ? s.bytesReadMin : s.bytesWrittenMin;
  const details: DetailInput<'file'>[] = [];
  const model = modelOf(ctx);
  let seconds = 0;
  // Default mode: a file the application reached through MPI-IO is judged at that layer (D14); at POSIX, collective
  // buffering makes the aggregators the only writers, which is not an imbalance.
  const viaMpiio = rowsHolding(s.ids, ctx.mode === 'default' ? (ctx.tryFact('mpiio.files')?.ids ?? []) : []);
  for (let i = 0; i < s.ids.length; i++) {
    if (viaMpiio[i]) continue;
    const spread = mx[i] ? Math.abs(mx[i] - mn[i]) / mx[i] : 0;
    if (spread > ctx.options.ratio) {
      // What the job waits on the file: its slowest rank's time beyond the mean rank's (the time model).
      const f = model ? fileRow(model, s.ids[i]) : -1;
      if (f >= 0) seconds += Math.max(0, model!.files.slowest[f] - model!.files.total[f] / Math.max(1, model!.files.ranks[f]));
      const subject = ctx.file(s.ids[i]);
      details.push({ messageId: 'file', data: { ratio: spread, file: subject.kind === 'file' ? subject.name : '' }, subject });
    }
  }
  if (!details.length) return;
  ctx.report({
    ...(ctx.mode === 'default' ? { cost: { seconds, semantics: 'slowest' as const }, savings: { kind: 'excess' as const, seconds, what: "each file's slowest rank's time beyond its mean rank's" } } : {}),
    messageId: 'imbalanced',
    data: { files: details.length },
    evidence: [{ name: 'files', value: details.length, unit: 'files', source: dir === 'read' ? 'POSIX_BYTES_READ per rank' : 'POSIX_BYTES_WRITTEN per rank' }],
    details,
    recommendations: ['balance', 'striping', 'noFill', 'collective'],
  });
}
