import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'posix.metaTime',
  description: 'POSIX metadata time (POSIX_F_META_TIME) per record, with its rank (−1 = shared record, time summed over ranks).',
  compute(src) {
    const t = src.fixed('POSIX');
    if (!t) return null;
    return { metaTime: t.float('POSIX_F_META_TIME'), ranks: t.ranks.col(0), ids: t.ids };
  },
});
