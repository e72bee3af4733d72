import type { CheckContext, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';
import { indexOf, significant, subjectName } from './diagnosis-common.js';

type Rec = 'coalesce' | 'collective' | 'hdf5Chunk';
type Layer = 'HDF5' | 'PnetCDF' | 'MPI-IO' | 'POSIX';

/**
 * D10/D11: small requests judged at the layer the application called. A file with HDF5 dataset (or PnetCDF
 * variable) records is judged by their request sizes, an MPI-IO file by its MPI-IO requests, other files by POSIX:
 * after collective buffering the POSIX requests are what ROMIO made of them, not what the application asked for.
 * Small = strictly below 1 MiB (1 MiB requests sit in Darshan's 100K_1M bin but are not small; MANIFEST caveat 3).
 * Level by share of the application's requests: HIGH above `small_share`, WARN above `small_requests`. Small
 * requests made collectively, on files whose POSIX requests are then mostly large (collective buffering did its job),
 * cost only their call overhead: they count toward WARN, not HIGH. HIGH also needs the files with small requests to
 * hold `small_time_share` of the POSIX time of that direction (weighted by their small share), so a few small writes
 * to a log file next to large data writes stay WARN.
 */
export function runAppLayerSmallRequests(ctx: CheckContext<'high' | 'warn' | 'min' | 'time', 'many' | 'file', Rec>, dir: Direction): void {
  const w = WORDS[dir];
  const hl = ctx.tryFact('hl.files');
  const mp = ctx.tryFact('mpiio.files');
  const px = ctx.tryFact('posix.files');
  const judged = new Set<bigint>();
  const rows: { id: bigint; layer: Layer; small: number; total: number; collective: boolean; independent: number }[] = [];
  // Whether a file's POSIX requests are mostly large: then collective small calls were merged before the file system.
  const pIdx = px ? indexOf(px.ids) : new Map<bigint, number>();
  const posixLarge = (id: bigint) => {
    const i = pIdx.get(id);
    if (i === undefined || !px) return false;
    const n = dir === 'read' ? px.reads[i] : px.writes[i];
    return n > 0 && (dir === 'read' ? px.smallReads[i] : px.smallWrites[i]) / n <= ctx.options.high;
  };
  if (hl) for (let i = 0; i < hl.ids.length; i++) {
    judged.add(hl.ids[i]);
    const collective = hl.collectiveOps[i] > hl.independentOps[i] && posixLarge(hl.ids[i]);
    rows.push({ id: hl.ids[i], layer: hl.layers[i], small: dir === 'read' ? hl.smallReads[i] : hl.smallWrites[i], total: dir === 'read' ? hl.reads[i] : hl.writes[i], collective, independent: hl.independentOps[i] });
  }
  if (mp) for (let i = 0; i < mp.ids.length; i++) {
    if (judged.has(mp.ids[i])) continue;
    judged.add(mp.ids[i]);
    const coll = dir === 'read' ? mp.collReads[i] + mp.splitReads[i] : mp.collWrites[i] + mp.splitWrites[i];
    const indep = dir === 'read' ? mp.indepReads[i] + mp.nbReads[i] : mp.indepWrites[i] + mp.nbWrites[i];
    rows.push({ id: mp.ids[i], layer: 'MPI-IO', small: dir === 'read' ? mp.smallReads[i] : mp.smallWrites[i], total: coll + indep, collective: coll > indep && posixLarge(mp.ids[i]), independent: indep });
  }
  if (px) for (let i = 0; i < px.ids.length; i++) {
    if (judged.has(px.ids[i])) continue;
    rows.push({ id: px.ids[i], layer: 'POSIX', small: dir === 'read' ? px.smallReads[i] : px.smallWrites[i], total: dir === 'read' ? px.reads[i] : px.writes[i], collective: false, independent: dir === 'read' ? px.reads[i] : px.writes[i] });
  }
  let small = 0, total = 0, costly = 0, smallTime = 0, allTime = 0;
  const time = px ? (dir === 'read' ? px.readTime : px.writeTime) : null;
  if (time) for (let i = 0; i < time.length; i++) allTime += Math.max(0, time[i]);
  for (const r of rows) {
    small += Math.max(0, r.small);
    total += Math.max(0, r.total);
    if (!r.collective) costly += Math.max(0, r.small);
    const i = pIdx.get(r.id);
    if (time && i !== undefined && r.total > 0) smallTime += Math.max(0, time[i]) * Math.min(1, Math.max(0, r.small) / r.total);
  }
  const share = total ? small / total : 0;
  // Time spent on the files with small requests, in proportion to their small share: the cost where Darshan has it.
  const timeShare = allTime > 0 ? smallTime / allTime : share;
  const o = ctx.options;
  if (!(small >= o.min && share > o.warn)) return;
  const details: DetailInput<'file'>[] = [];
  for (const r of significant(rows, (x) => x.small)) {
    const subject = ctx.file(r.id);
    details.push({ messageId: 'file', data: { count: r.small, ratio: r.total ? r.small / r.total : 0, layer: r.layer, file: subjectName(subject) }, subject });
  }
  const layers = new Set(rows.filter((r) => r.small > 0).map((r) => r.layer));
  const recs: Rec[] = ['coalesce'];
  // Collective calls only where some small requests are not collective yet (never recommend what the job does).
  if (mp && rows.some((r) => r.small > 0 && r.independent > 0)) recs.push('collective');
  if (layers.has('HDF5')) recs.push('hdf5Chunk');
  ctx.report({
    level: total && costly / total > o.high && timeShare > o.time ? 'HIGH' : 'WARN',
    cost: allTime > 0 ? { share: timeShare, basis: 'time' } : { share, basis: 'operations' },
    messageId: 'many',
    data: { count: small, total, ratio: share },
    evidence: [
      { name: `small${w.Op}s`, value: small, unit: 'count', source: 'H5D/PNETCDF_VAR, MPIIO_SIZE_*_AGG or POSIX_SIZE_* bins below 1 MiB, refined with *_ACCESS1..4' },
      { name: w.ops, value: total, unit: 'count', source: 'H5D_/PNETCDF_VAR_, MPIIO_ or POSIX_ request counters' },
      { name: 'share', value: share, unit: 'ratio', source: 'hl.files, mpiio.files, posix.files' },
    ],
    details,
    recommendations: recs,
  });
}
