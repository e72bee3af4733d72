import { FixedTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import { groupAllById } from './group.js';
import { MODULE_TOTALS, TOTAL_MEASURES, measureColumn, sumOf } from './module-measures.js';
import type { ModuleTotals } from './types.js';

export default defineFact({
  name: 'modules.totals',
  description:
    'Per fixed-size module (POSIX, MPI-IO, STDIO, H5F, H5D, PnetCDF, DFS, DAOS): records, distinct files, opens, reads, writes, bytes and cumulative times, summed over records with Darshan\'s −1 ("not measured") as 0.',
  compute(src) {
    const modules: ModuleTotals[] = [];
    for (const spec of MODULE_TOTALS) {
      if (!src.log.has(spec.module)) continue;
      const t = src.fixed(spec.module);
      if (!(t instanceof FixedTable)) continue;
      const sums = TOTAL_MEASURES.map((m) => sumOf(measureColumn(t, spec[m])));
      const [opens, reads, writes, bytesRead, bytesWritten, readTime, writeTime, metaTime] = sums;
      modules.push({ key: spec.key, module: spec.module, iface: spec.iface, records: t.length, files: groupAllById(t.ids).keys.length, opens, reads, writes, bytesRead, bytesWritten, readTime, writeTime, metaTime });
    }
    return { modules };
  },
});
