import { defineCheck } from '../define-check.js';
import type { Check } from '../types.js';
import type { Direction } from './direction.js';

/**
 * P01–P04: the job is dominated by writes or by reads, counted in operations (P01/P02) or bytes (P03/P04).
 * Drishti's test: the dominant side is larger and |W − R| / (R + W) > imbalance_operations.
 */
export function operationIntensity(code: 'P01' | 'P02' | 'P03' | 'P04', dir: Direction, unit: 'operations' | 'bytes'): Check<'imbalanceRatio', 'intensive', never> {
  const byBytes = unit === 'bytes';
  const what = byBytes ? 'bytes' : 'operations';
  return defineCheck({
    meta: {
      code,
      slug: `${dir}-${byBytes ? 'volume' : 'operation'}-intensity`,
      title: `Reads and writes are balanced in ${what}`,
      failureTitle: `${dir === 'write' ? 'Write' : 'Read'}-intensive job (${what})`,
      description:
        `Most of the job's POSIX ${what} are ${dir}s. This is an observation that frames the other insights ` +
        `(a ${dir}-intensive job gains most from tuning its ${dir} path), not a problem in itself.`,
      panel: 'METADATA',
      layer: 'POSIX',
      scope: 'job',
      level: 'INFO',
      problem: 'io-intensity',
      requires: ['posix.totals'],
      options: { imbalanceRatio: { knob: 'imbalance_operations', description: `Minimum |W − R| / (R + W) of POSIX ${what}.` } },
      messages: {
        intensive: byBytes
          ? `The job is ${dir}-intensive by volume: {writeRatio:pct} of the POSIX bytes are written and {readRatio:pct} read`
          : `The job is ${dir}-intensive by operation count: {writeRatio:pct} of the POSIX operations are writes and {readRatio:pct} reads`,
      },
      recommendations: {},
      compat: { drishti: code, marks: [] },
    },
    run(ctx) {
      const t = ctx.fact('posix.totals');
      const r = byBytes ? t.bytesRead : t.reads;
      const w = byBytes ? t.bytesWritten : t.writes;
      const total = r + w;
      const dominant = dir === 'write' ? w > r : r > w;
      if (!dominant || !total || !(Math.abs(w - r) / total > ctx.options.imbalanceRatio)) return;
      const src = byBytes ? 'POSIX_BYTES_READ, POSIX_BYTES_WRITTEN' : 'POSIX_READS, POSIX_WRITES';
      ctx.report({
        messageId: 'intensive',
        data: { writeRatio: w / total, readRatio: r / total },
        evidence: [
          { name: byBytes ? 'bytesRead' : 'reads', value: r, unit: byBytes ? 'bytes' : 'count', source: src },
          { name: byBytes ? 'bytesWritten' : 'writes', value: w, unit: byBytes ? 'bytes' : 'count', source: src },
        ],
      });
    },
  });
}
