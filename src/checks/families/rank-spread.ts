import { defineCheck } from '../define-check.js';
import type { Check, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/**
 * P21/P22: files accessed through per-rank records (not Darshan-shared) where ranks moved very different amounts:
 * (max − min) / max of per-rank bytes > imbalance_size.
 */
export function rankSpread(code: 'P21' | 'P22', dir: Direction): Check<'ratio', 'imbalanced' | 'file', 'balance' | 'striping' | 'noFill' | 'collective'> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `per-rank-${w.op}-imbalance`,
      title: `Ranks ${dir === 'read' ? 'read' : 'write'} similar amounts of each file`,
      failureTitle: `${w.Op} imbalance between ranks of individual files`,
      description: `Some ranks ${dir === 'read' ? 'read' : 'wrote'} far more of a file than others; the busiest rank sets the pace.`,
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'file',
      level: 'HIGH',
      problem: 'rank-imbalance',
      requires: ['posix.rankSpread'],
      options: { ratio: { knob: 'imbalance_size', description: `(max − min) / max of bytes ${w.data} per rank above which a file is listed.` } },
      messages: {
        imbalanced: `${w.Op} imbalance between ranks on {files} file(s) accessed rank by rank`,
        file: `{ratio:pct} imbalance on "{file}"`,
      },
      recommendations: {
        balance: { text: 'Give every rank a similar share of the data' },
        striping: { text: 'Tune the stripe count and size so the data spreads over enough storage targets', snippet: 'lustre-striping.sh' },
        noFill: { text: 'With HDF5 or netCDF, check whether fill values are needed: writing them doubles the work of the ranks that create datasets', snippet: 'no-fill.c' },
        collective: { text: 'When only rank 0 opens and accesses the file, let all ranks take part through collective MPI-IO' },
      },
      compat: { drishti: code },
    },
    run(ctx) {
      const s = ctx.fact('posix.rankSpread');
      const mx = dir === 'read' ? s.bytesReadMax : s.bytesWrittenMax;
      const mn = dir === 'read' ? s.bytesReadMin : s.bytesWrittenMin;
      const details: DetailInput<'file'>[] = [];
      for (let i = 0; i < s.ids.length; i++) {
        const spread = mx[i] ? Math.abs(mx[i] - mn[i]) / mx[i] : 0;
        if (spread > ctx.options.ratio) {
          const subject = ctx.file(s.ids[i]);
          details.push({ messageId: 'file', data: { ratio: spread, file: subject.kind === 'file' ? subject.name : '' }, subject });
        }
      }
      if (!details.length) return;
      ctx.report({
        messageId: 'imbalanced',
        data: { files: details.length },
        evidence: [{ name: 'files', value: details.length, unit: 'files', source: dir === 'read' ? 'POSIX_BYTES_READ per rank' : 'POSIX_BYTES_WRITTEN per rank' }],
        details,
        recommendations: ['balance', 'striping', 'noFill', 'collective'],
      });
    },
  });
}
