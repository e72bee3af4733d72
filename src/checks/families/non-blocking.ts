import { defineCheck } from '../define-check.js';
import type { Check } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/**
 * M06/M07: no non-blocking MPI-IO reads/writes. Drishti fires whenever the MPI-IO module exists, even when the job
 * never reads (writes) through MPI-IO (SPEC §7.4); the default mode requires MPI-IO operations of that direction.
 */
export function nonBlocking(code: 'M06' | 'M07', dir: Direction): Check<never, 'blocking', 'asyncVol' | 'nonBlocking'> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `blocking-${w.ops}`,
      title: `MPI-IO ${w.ops} overlap with computation`,
      failureTitle: `MPI-IO ${w.ops} are all blocking`,
      description:
        `Every MPI-IO ${w.op} blocks the rank until it completes. Non-blocking calls (or HDF5's asynchronous VOL) let ` +
        `computation or communication proceed while the I/O is in flight.`,
      panel: 'OPERATIONS',
      layer: 'MPI-IO',
      scope: 'job',
      level: 'WARN',
      problem: 'blocking-io',
      requires: ['mpiio.totals'],
      options: {},
      messages: { blocking: `Non-blocking (asynchronous) ${w.ops} could hide I/O time: no non-blocking MPI-IO ${w.ops}` },
      recommendations: {
        asyncVol: { text: `The job uses HDF5: the asynchronous VOL connector (github.com/hpc-io/vol-async) runs ${w.ops} in a background thread`, snippet: dir === 'read' ? 'hdf5-vol-async-read.c' : 'hdf5-vol-async-write.c' },
        nonBlocking: { text: `Start ${w.ops} with MPI_File_i${w.op} (or the split collective _begin/_end calls) and wait for them only when the data is needed`, snippet: dir === 'read' ? 'mpi-io-iread.c' : 'mpi-io-iwrite.c' },
      },
      compat: {
        drishti: code,
        differences: [{ id: 'needs-operations', description: `Drishti fires whenever the MPI-IO module is present, even for a job that never ${dir === 'read' ? 'reads' : 'writes'} through MPI-IO; the default mode requires MPI-IO ${w.ops}.` }],
      },
    },
    run(ctx) {
      const t = ctx.fact('mpiio.totals');
      const nb = dir === 'read' ? t.nbReads : t.nbWrites;
      if (nb !== 0) return;
      const ops = dir === 'read' ? t.indepReads + t.collReads : t.indepWrites + t.collWrites;
      if (ctx.mode === 'default' && !(ops > 0)) return;
      const h = ctx.fact('hdf5');
      const recs: ('asyncVol' | 'nonBlocking')[] = [];
      if (h.h5f || h.mpiioHdf5Name) recs.push('asyncVol');
      if (ctx.hasModule('MPI-IO')) recs.push('nonBlocking');
      ctx.report({
        messageId: 'blocking',
        data: {},
        evidence: [
          { name: `nonBlocking${w.Op}s`, value: nb, unit: 'count', source: dir === 'read' ? 'MPIIO_NB_READS' : 'MPIIO_NB_WRITES' },
          { name: `mpiio${w.Op}s`, value: ops, unit: 'count', source: dir === 'read' ? 'MPIIO_INDEP_READS + MPIIO_COLL_READS' : 'MPIIO_INDEP_WRITES + MPIIO_COLL_WRITES' },
        ],
        recommendations: recs,
      });
    },
  });
}
