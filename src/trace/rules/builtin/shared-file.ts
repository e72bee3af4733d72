import { type Rule } from '../types.js';
import { formatCount } from '../../../text/format.js';

/** Many processes access the same file (contention, locking on shared files). */
export const sharedFile: Rule = {
  id: 'shared-file',
  title: 'Many processes on one file',
  description: 'a file record (views whose last dimension is file) accessed by ≥ 4 processes',
  source: 'builtin',
  explain(m, ctx) {
    if (ctx.dims[ctx.dims.length - 1] === 'file' && m.nprocs >= 4) {
      return [`${formatCount(m.nprocs)} processes access this file`];
    }
    return [];
  },
};
