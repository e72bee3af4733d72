import type { CheckContext } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/**
 * M06/M07: no non-blocking MPI-IO reads/writes. Drishti fires whenever the MPI-IO module exists, even when the job
 * never reads (writes) through MPI-IO (SPEC §7.4); the default mode requires MPI-IO operations of that direction.
 */
export function runNonBlocking(ctx: CheckContext<'overlap', 'blocking', 'asyncVol' | 'nonBlocking'>, dir: Direction): void {
  const w = WORDS[dir];
  const t = ctx.fact('mpiio.totals');
  const nb = dir === 'read' ? t.nbReads : t.nbWrites;
  if (nb !== 0) return;
  const ops = dir === 'read' ? t.indepReads + t.collReads : t.indepWrites + t.collWrites;
  if (ctx.mode === 'default' && !(ops > 0)) return;
  const h = ctx.fact('hdf5');
  const recs: ('asyncVol' | 'nonBlocking')[] = [];
  if (h.h5f || h.mpiioHdf5Name) recs.push('asyncVol');
  if (ctx.hasModule('MPI-IO')) recs.push('nonBlocking');
  // Overlapping I/O with computation can save at most the blocking calls' time: a suggestion, not a problem (INFO
  // with that bound), and only where the job spends a real share of its run in I/O (default mode; Drishti always
  // warns).
  const ioShare = ctx.mode === 'default' ? (ctx.tryFact('io.summary')?.ioShare ?? null) : null;
  if (ctx.mode === 'default' && !(ioShare !== null && ioShare >= ctx.options.overlap)) return;
  // What overlapping could hide: the blocking MPI-IO calls of that direction (an upper bound).
  const mpiio = ctx.mode === 'default' ? ctx.tryFact('mpiio.files') : null;
  let blocking = 0;
  if (mpiio) for (let i = 0; i < mpiio.ids.length; i++) blocking += Math.max(0, dir === 'read' ? mpiio.readTime[i] : mpiio.writeTime[i]);
  ctx.report({
    ...(ctx.mode === 'default' ? { level: 'INFO' as const, cost: { seconds: blocking, basis: 'bound' as const } } : {}),
    messageId: 'blocking',
    data: {},
    evidence: [
      { name: `nonBlocking${w.Op}s`, value: nb, unit: 'count', source: dir === 'read' ? 'MPIIO_NB_READS' : 'MPIIO_NB_WRITES' },
      { name: `mpiio${w.Op}s`, value: ops, unit: 'count', source: dir === 'read' ? 'MPIIO_INDEP_READS + MPIIO_COLL_READS' : 'MPIIO_INDEP_WRITES + MPIIO_COLL_WRITES' },
    ],
    recommendations: recs,
  });
}
