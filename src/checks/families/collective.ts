import type { CheckContext, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/**
 * M02/M03: MPI-IO is used but no collective reads/writes, with more than collective_operations_absolute MPI-IO
 * operations of that direction. Details: `--drishti` lists MPI-IO *records* (one per rank for unshared files) whose
 * independent share exceeds collective_operations and whose independent operations exceed the absolute floor,
 * printing the percentage as a raw float (SPEC §7.9); the default mode lists files (ranks summed).
 */
export function runMissingCollectives(ctx: CheckContext<'ratio' | 'absolute', 'independent' | 'record' | 'file', 'collective'>, dir: Direction): void {
  const w = WORDS[dir];
  const t = ctx.fact('mpiio.totals');
  const coll = dir === 'read' ? t.collReads : t.collWrites;
  const indep = dir === 'read' ? t.indepReads : t.indepWrites;
  const total = indep + coll;
  const { ratio, absolute } = ctx.options;
  if (coll !== 0 || !(total > absolute)) return;
  const r = ctx.fact('mpiio.records');
  const details: DetailInput<'record' | 'file'>[] = [];
  const pick = (ir: number, iw: number) => {
    const both = ir + iw;
    const mine = dir === 'read' ? ir : iw;
    return both && mine / both > ratio && both > absolute ? mine / both : -1;
  };
  if (ctx.mode === 'drishti') {
    for (let i = 0; i < r.ids.length; i++) {
      const share = pick(r.indepReads[i], r.indepWrites[i]);
      if (share < 0) continue;
      const subject = ctx.file(r.ids[i], r.ranks[i]);
      const count = dir === 'read' ? r.indepReads[i] : r.indepWrites[i];
      details.push({ messageId: 'record', data: { count, percent: share * 100, file: subject.kind === 'file' ? subject.name : '' }, subject });
    }
  } else {
    const f = r.byFile;
    for (let i = 0; i < f.ids.length; i++) {
      const share = pick(f.indepReads[i], f.indepWrites[i]);
      if (share < 0) continue;
      const subject = ctx.file(f.ids[i]);
      const count = dir === 'read' ? f.indepReads[i] : f.indepWrites[i];
      details.push({ messageId: 'file', data: { count, ratio: share, file: subject.kind === 'file' ? subject.name : '' }, subject });
    }
  }
  ctx.report({
    messageId: 'independent',
    data: { count: indep, ratio: indep / total },
    evidence: [
      { name: `independent${w.Op}s`, value: indep, unit: 'count', source: dir === 'read' ? 'MPIIO_INDEP_READS' : 'MPIIO_INDEP_WRITES' },
      { name: `collective${w.Op}s`, value: coll, unit: 'count', source: dir === 'read' ? 'MPIIO_COLL_READS' : 'MPIIO_COLL_WRITES' },
    ],
    details,
    recommendations: ['collective'],
  });
}

/** M04/M05: the observation that MPI-IO reads/writes use collective calls. */
export function runCollectiveUse(ctx: CheckContext<never, 'collective', never>, dir: Direction): void {
  const w = WORDS[dir];
  const t = ctx.fact('mpiio.totals');
  const coll = dir === 'read' ? t.collReads : t.collWrites;
  const total = coll + (dir === 'read' ? t.indepReads : t.indepWrites);
  if (coll === 0) return;
  ctx.report({
    messageId: 'collective',
    data: { count: coll, ratio: coll / total },
    evidence: [{ name: `collective${w.Op}s`, value: coll, unit: 'count', source: dir === 'read' ? 'MPIIO_COLL_READS' : 'MPIIO_COLL_WRITES' }],
  });
}
