import type { CheckContext } from '../types.js';
import type { Direction } from './direction.js';

/**
 * P01–P04: the job is dominated by writes or by reads, counted in operations (P01/P02) or bytes (P03/P04).
 * Drishti's test: the dominant side is larger and |W − R| / (R + W) > imbalance_operations.
 */
export function runOperationIntensity(ctx: CheckContext<'imbalanceRatio', 'intensive', never>, dir: Direction, unit: 'operations' | 'bytes'): void {
  const byBytes = unit === 'bytes';
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
}
