import { defineCheck } from '../define-check.js';
import type { Check } from '../types.js';
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
export function randomAccess(code: 'P11' | 'P13', dir: Direction): Check<'ratio' | 'absolute', 'random', 'sequentialLayout'> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `random-${w.ops}`,
      title: `POSIX ${w.ops} are mostly sequential`,
      failureTitle: `Many random POSIX ${w.ops}`,
      description:
        `A ${w.op} at a lower offset than the previous one defeats read-ahead and write-behind and, on striped ` +
        `file systems, spreads requests over many servers. Darshan counts a request as sequential when its offset ` +
        `is past the previous one; the rest are random.`,
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'job',
      level: 'HIGH',
      problem: dir === 'read' ? 'random-read' : 'random-write',
      requires: ['posix.totals'],
      options: {
        ratio: { knob: 'random_operations', description: `Minimum share of random ${w.ops}.` },
        absolute: { knob: 'random_operations_absolute', description: `Minimum number of random ${w.ops}.` },
      },
      messages: { random: `{count} random ${w.noun} ({ratio:pct} of all POSIX ${w.ops})` },
      recommendations: { sequentialLayout: { text: `Reorganise the data layout or the access order so that each rank ${dir === 'read' ? 'reads' : 'writes'} consecutive or at least increasing offsets` } },
      compat: { drishti: code },
    },
    run(ctx) {
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
    },
  });
}

/** P12/P14: the observation that requests are mostly consecutive or sequential (when P11/P13 does not fire). */
export function sequentialAccess(code: 'P12' | 'P14', dir: Direction): Check<'ratio' | 'absolute', 'sequential', never> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `sequential-${w.ops}`,
      title: `POSIX ${w.ops} are mostly consecutive or sequential`,
      failureTitle: `POSIX ${w.ops} are mostly consecutive or sequential`,
      description: `The job's POSIX ${w.ops} mostly move forward through their files: the access pattern is friendly to caches and striping.`,
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'job',
      level: 'OK',
      problem: dir === 'read' ? 'random-read' : 'random-write',
      requires: ['posix.totals'],
      options: {
        ratio: { knob: 'random_operations', description: `Share of random ${w.ops} at or below which this observation is made.` },
        absolute: { knob: 'random_operations_absolute', description: `Number of random ${w.ops} at or below which this observation is made (either bound suffices).` },
      },
      messages: { sequential: `POSIX ${w.ops} are mostly consecutive ({consecutiveRatio:pct}) or sequential ({sequentialRatio:pct})` },
      recommendations: {},
      compat: { drishti: code, marks: [] },
    },
    run(ctx) {
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
    },
  });
}
