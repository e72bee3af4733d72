import { type Rule } from '../types.js';
import { formatCount } from '../../../text/format.js';

/** A process or time window touches very many distinct files (file-per-sample, small-file workloads). */
export const manyFiles: Rule = {
  id: 'many-files',
  title: 'Many files',
  description: 'a record that is not a single file touches more than 100 distinct files',
  source: 'builtin',
  explain(m, ctx) {
    if (!ctx.dims.includes('file') && m.nfiles > 100) return [`${formatCount(m.nfiles)} distinct files are accessed`];
    return [];
  },
};
