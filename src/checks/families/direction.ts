/** Read/write twins share one factory; `Direction` picks the counters and words. */
export type Direction = 'read' | 'write';

export const WORDS = {
  read: { op: 'read', ops: 'reads', noun: 'read requests', data: 'read', Op: 'Read' },
  write: { op: 'write', ops: 'writes', noun: 'write requests', data: 'written', Op: 'Write' },
} as const;

/** a / b, or 0 when b is 0 (ratios of empty totals are not signals). */
export function ratio(a: number, b: number): number {
  return b ? a / b : 0;
}
