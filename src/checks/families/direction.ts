/** Read/write twins share one run helper; `Direction` picks the counters. */
export type Direction = 'read' | 'write';

/**
 * Words for the names of evidence values (`smallReads`, `writes`). Evidence is produced by the run logic; the texts
 * of a check (titles, messages, recommendations) are written out in its meta, in its own file.
 */
export const WORDS = {
  read: { ops: 'reads', Op: 'Read' },
  write: { ops: 'writes', Op: 'Write' },
} as const;
