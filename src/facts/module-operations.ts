import { FixedTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import { counterSum } from './module-measures.js';

/** Operations plotted per module, in PyDarshan's order, each the sum of some counters. */
const OPERATIONS: readonly { readonly module: string; readonly ops: readonly (readonly [string, readonly string[]])[] }[] = [
  {
    module: 'POSIX',
    ops: [['Read', ['POSIX_READS']], ['Write', ['POSIX_WRITES']], ['Open', ['POSIX_OPENS']], ['Stat', ['POSIX_STATS']], ['Seek', ['POSIX_SEEKS']], ['Mmap', ['POSIX_MMAPS']], ['Fsync', ['POSIX_FSYNCS', 'POSIX_FDSYNCS']]],
  },
  {
    module: 'MPI-IO',
    ops: [
      ['Ind. Read', ['MPIIO_INDEP_READS']], ['Ind. Write', ['MPIIO_INDEP_WRITES']], ['Ind. Open', ['MPIIO_INDEP_OPENS']],
      ['Col. Read', ['MPIIO_COLL_READS']], ['Col. Write', ['MPIIO_COLL_WRITES']], ['Col. Open', ['MPIIO_COLL_OPENS']],
      ['NB Read', ['MPIIO_NB_READS']], ['NB Write', ['MPIIO_NB_WRITES']], ['Sync', ['MPIIO_SYNCS']],
    ],
  },
  { module: 'STDIO', ops: [['Read', ['STDIO_READS']], ['Write', ['STDIO_WRITES']], ['Open', ['STDIO_OPENS', 'STDIO_FDOPENS']], ['Seek', ['STDIO_SEEKS']], ['Flush', ['STDIO_FLUSHES']]] },
  { module: 'H5F', ops: [['Open', ['H5F_OPENS']], ['Flush', ['H5F_FLUSHES']]] },
  { module: 'H5D', ops: [['Read', ['H5D_READS']], ['Write', ['H5D_WRITES']], ['Open', ['H5D_OPENS']], ['Flush', ['H5D_FLUSHES']]] },
  {
    module: 'PNETCDF_VAR',
    ops: [
      ['Ind. Read', ['PNETCDF_VAR_INDEP_READS']], ['Ind. Write', ['PNETCDF_VAR_INDEP_WRITES']],
      ['Col. Read', ['PNETCDF_VAR_COLL_READS']], ['Col. Write', ['PNETCDF_VAR_COLL_WRITES']],
      ['NB Read', ['PNETCDF_VAR_NB_READS']], ['NB Write', ['PNETCDF_VAR_NB_WRITES']], ['Open', ['PNETCDF_VAR_OPENS']],
    ],
  },
];

export default defineFact({
  name: 'modules.operations',
  description:
    "Operation counts per module as PyDarshan's summary plots them (POSIX read, write, open, stat, seek, mmap, fsync; MPI-IO independent, collective and non-blocking reads and writes, opens, syncs; STDIO; HDF5; PnetCDF), summed over records. An operation whose counters the input lacks is left out.",
  compute(src) {
    const modules: { module: string; ops: { op: string; count: number }[] }[] = [];
    for (const spec of OPERATIONS) {
      if (!src.log.has(spec.module)) continue;
      const t = src.fixed(spec.module);
      if (!(t instanceof FixedTable) || t.length === 0) continue;
      const ops: { op: string; count: number }[] = [];
      for (const [op, counters] of spec.ops) {
        const parts = counters.map((c) => counterSum(t, c)).filter((v): v is number => v !== null);
        if (parts.length) ops.push({ op, count: parts.reduce((a, b) => a + b, 0) });
      }
      if (ops.length) modules.push({ module: spec.module, ops });
    }
    return { modules };
  },
});
