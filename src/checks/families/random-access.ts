import type { CheckContext } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/** Random = operations − sequential (Darshan's SEQ counters include the consecutive ones). */
function counts(t: { reads: number; writes: number; consecReads: number; seqReads: number; consecWrites: number; seqWrites: number }, dir: Direction) {
  const ops = dir === 'read' ? t.reads : t.writes;
  const consec = dir === 'read' ? t.consecReads : t.consecWrites;
  const seq = (dir === 'read' ? t.seqReads : t.seqWrites) - consec;
  return { ops, consec, seq, random: ops - consec - seq };
}

function isRandom(c: { ops: number; random: number }, ratio: number, absolute: number): boolean {
  return !!c.random && c.random / c.ops > ratio && c.random > absolute;
}

/** P11/P13: many random (non-sequential) POSIX requests. */
export function runRandomAccess(ctx: CheckContext<'ratio' | 'absolute', 'random', 'sequentialLayout'>, dir: Direction): void {
  const w = WORDS[dir];
  const c = counts(ctx.fact('posix.totals'), dir);
  if (!c.ops || !isRandom(c, ctx.options.ratio, ctx.options.absolute)) return;
  ctx.report({
    messageId: 'random',
    data: { count: c.random, ratio: c.random / c.ops },
    evidence: [
      { name: `random${w.Op}s`, value: c.random, unit: 'count', source: dir === 'read' ? 'POSIX_READS − POSIX_SEQ_READS' : 'POSIX_WRITES − POSIX_SEQ_WRITES' },
      { name: w.ops, value: c.ops, unit: 'count', source: dir === 'read' ? 'POSIX_READS' : 'POSIX_WRITES' },
    ],
    recommendations: ['sequentialLayout'],
  });
}

/** P12/P14: the observation that requests are mostly consecutive or sequential (when P11/P13 does not fire). */
export function runSequentialAccess(ctx: CheckContext<'ratio' | 'absolute', 'sequential', never>, dir: Direction): void {
  const w = WORDS[dir];
  const c = counts(ctx.fact('posix.totals'), dir);
  if (!c.ops || isRandom(c, ctx.options.ratio, ctx.options.absolute)) return;
  ctx.report({
    messageId: 'sequential',
    data: { consecutiveRatio: c.consec / c.ops, sequentialRatio: c.seq / c.ops },
    evidence: [
      { name: 'consecutive', value: c.consec, unit: 'count', source: dir === 'read' ? 'POSIX_CONSEC_READS' : 'POSIX_CONSEC_WRITES' },
      { name: 'sequential', value: c.seq, unit: 'count', source: dir === 'read' ? 'POSIX_SEQ_READS − POSIX_CONSEC_READS' : 'POSIX_SEQ_WRITES − POSIX_CONSEC_WRITES' },
      { name: w.ops, value: c.ops, unit: 'count', source: dir === 'read' ? 'POSIX_READS' : 'POSIX_WRITES' },
    ],
  });
}
