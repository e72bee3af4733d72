import type { CheckContext, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';
import { DATA_OPS, modelOf, rowOf, rowsHolding, secondsOf, significant, SIGNIFICANT_SHARE, subjectName } from './diagnosis-common.js';

type Rec = 'coalesce' | 'collective' | 'hdf5Chunk';
type Layer = 'HDF5' | 'PnetCDF' | 'MPI-IO' | 'POSIX' | 'STDIO';
export interface Row { readonly id: bigint; readonly layer: Layer; readonly small: number; readonly total: number; readonly collective: boolean; readonly independent: number; readonly time: number; /** Bytes of the direction at the layer judged. */ readonly bytes: number }
/** What files left without a row add: their requests, and 0 times their time (NaN where a time is not finite). */
interface Rest { total: number; zeroTime: number }

/** Requests at or above this size are not small (1 MiB sits in Darshan's 100K_1M bin, MANIFEST caveat 3). */
const SMALL_LIMIT = 1048576;

/**
 * D10/D11: small requests judged at the layer the application called. A file with HDF5 dataset (or PnetCDF
 * variable) records is judged by their request sizes, an MPI-IO file by its MPI-IO requests, a STDIO stream by its
 * STDIO requests (Darshan keeps no size histogram for STDIO: a stream whose mean request is under 1 MiB counts all
 * its requests as small; the `write()` calls glibc makes for it are invisible to Darshan), other files by POSIX: after
 * collective buffering the POSIX requests are what ROMIO made of them, not what the application asked for.
 * Small = strictly below 1 MiB (MANIFEST caveat 3).
 *
 * Symptoms a layer below shows are still named. An HDF5/PnetCDF file whose library requests are large but whose
 * MPI-IO (else POSIX) layer moves `small_bytes_share` of its bytes in small requests (a lower bound from the size
 * bins) had its large requests split by the library (tiny chunks, type conversion): those lower-layer requests are
 * judged. Requests the layers below merged before the file system are not the problem: PnetCDF non-blocking pieces
 * (neither independent nor collective at the library) carried by fewer collective MPI-IO calls are left out — posting
 * small pieces and flushing them in one collective wait is the recommended practice — and so are collective small
 * pieces whose calls move at least 1 MiB over all ranks (bytes per collective round) while the POSIX requests are
 * mostly large: collective buffering wrote them as large requests. Other collective small requests whose POSIX
 * requests are mostly large count toward WARN only (many small collective calls still synchronise every time).
 *
 * A STDIO stream's small records are merged by its buffer (st_blksize: 4 KiB on a local disk, the stripe size on
 * Lustre) unless each record is flushed: they count toward WARN only, like merged collective pieces; streams whose
 * small records move less than `io_bytes_min` together (an input deck read line by line) are not a data path.
 *
 * Level: HIGH when the costly (not merged) small requests exceed `small_share` of the requests of that direction and
 * the files with small requests hold `small_time_share` of the job's I/O time (each file's time of that direction at
 * the layer called, weighted by its small share), else WARN. That time is the cost the level rule weighs.
 */
export function runAppLayerSmallRequests(ctx: CheckContext<'high' | 'warn' | 'min' | 'time' | 'bytes' | 'minBytes', 'many' | 'file', Rec>, dir: Direction): void {
  const w = WORDS[dir];
  const hl = ctx.tryFact('hl.files');
  const mp = ctx.tryFact('mpiio.files');
  const px = ctx.tryFact('posix.files');
  const sf = ctx.tryFact('stdio.files');
  const posixRow = px ? rowOf(px.ids) : () => -1;
  const mpiioRowOf = mp ? rowOf(mp.ids) : () => -1;
  const posixTime = (id: bigint, read: boolean) => {
    const i = posixRow(id);
    return i < 0 || !px ? 0 : Math.max(0, read ? px.readTime[i] : px.writeTime[i]);
  };
  // Whether a file's POSIX requests are mostly (at least half) large: then collective small calls were merged before
  // the file system. A property of the file, not a threshold: `small_share` only decides HIGH versus WARN.
  const posixLarge = (id: bigint, read: boolean) => {
    const i = posixRow(id);
    if (i < 0 || !px) return false;
    const n = read ? px.reads[i] : px.writes[i];
    return n > 0 && (read ? px.smallReads[i] : px.smallWrites[i]) / n <= 0.5;
  };
  const nprocs = Math.max(1, ctx.tryFact('job')?.processes ?? 1);
  // A collective call moves what all ranks give it: when those aggregates reach 1 MiB and the POSIX requests are
  // large, collective buffering did its job and the ranks' small pieces are not small requests at all.
  const mergedAggregates = (id: bigint, coll: number, indep: number, bytes: number, shared: boolean, read: boolean) => {
    if (!(coll > 0) || !posixLarge(id, read)) return false;
    const rounds = shared ? coll / nprocs : coll;
    return (bytes * coll) / (coll + indep) / Math.max(1, rounds) >= SMALL_LIMIT;
  };
  const mpiioRow = (i: number, read: boolean): Row => {
    const coll = read ? mp!.collReads[i] + mp!.splitReads[i] : mp!.collWrites[i] + mp!.splitWrites[i];
    const indep = read ? mp!.indepReads[i] + mp!.nbReads[i] : mp!.indepWrites[i] + mp!.nbWrites[i];
    const id = mp!.ids[i];
    let small = read ? mp!.smallReads[i] : mp!.smallWrites[i];
    if (mergedAggregates(id, coll, indep, read ? mp!.bytesRead[i] : mp!.bytesWritten[i], mp!.shared[i] > 0, read)) small = Math.round((small * indep) / (coll + indep));
    return { id, layer: 'MPI-IO' as const, small, total: coll + indep, collective: coll > indep && posixLarge(id, read), independent: indep, time: posixTime(id, read), bytes: Math.max(0, read ? mp!.bytesRead[i] : mp!.bytesWritten[i]) };
  };
  /** The files' rows for one direction, each judged at one layer, and the time of that direction (`posixRows`: false
   *  when only the direction's request total is wanted). The POSIX files judged at their own layer (most files of a
   *  large log) are not rows but their POSIX row numbers, in order after `rows`: `posixRowOf` makes one a row. */
  const build = (read: boolean, posixRows: boolean): { rows: Row[]; posix: Int32Array; allTime: number; rest: Rest } => {
    const judged = new Set<bigint>();
    const rows: Row[] = [];
    if (hl) for (let i = 0; i < hl.ids.length; i++) {
      const id = hl.ids[i];
      judged.add(id);
      const ops = read ? hl.reads[i] : hl.writes[i];
      let small = read ? hl.smallReads[i] : hl.smallWrites[i];
      const m = mpiioRowOf(id);
      // Non-blocking pieces (PnetCDF iput/iget: neither independent nor collective), merged by the wait into fewer
      // collective MPI-IO calls, never reach the file system one by one.
      const both = hl.reads[i] + hl.writes[i];
      const nb = Math.max(0, both - hl.independentOps[i] - hl.collectiveOps[i]);
      if (nb > 0 && m >= 0 && both > 0) {
        const mpColl = read ? mp!.collReads[m] + mp!.splitReads[m] : mp!.collWrites[m] + mp!.splitWrites[m];
        const mpAll = mpColl + (read ? mp!.indepReads[m] + mp!.nbReads[m] : mp!.indepWrites[m] + mp!.nbWrites[m]);
        if (mpColl > 0 && mpAll < ops) small = Math.round(small * (1 - nb / both));
      }
      const collShare = both > 0 ? hl.collectiveOps[i] / both : 0;
      if (m >= 0 && mergedAggregates(id, ops * collShare, ops * (1 - collShare), read ? hl.bytesRead[i] : hl.bytesWritten[i], mp!.shared[m] > 0, read)) small = Math.round(small * (1 - collShare));
      const row = { id, layer: hl.layers[i] as Layer, small, total: ops, collective: hl.collectiveOps[i] > hl.independentOps[i] && posixLarge(id, read), independent: hl.independentOps[i], time: posixTime(id, read), bytes: Math.max(0, read ? hl.bytesRead[i] : hl.bytesWritten[i]) };
      // Large library requests that the layer below split into small ones: judge that layer.
      const libBytes = read ? hl.bytesRead[i] : hl.bytesWritten[i];
      if (libBytes > 0 && !(ops > 0 && small / ops > ctx.options.warn)) {
        if (m >= 0) {
          const lower = mpiioRow(m, read);
          if ((read ? mp!.smallReadBytes[m] : mp!.smallWriteBytes[m]) / libBytes > ctx.options.bytes && lower.total > ops) {
            rows.push(lower);
            continue;
          }
        } else {
          const p = posixRow(id);
          const pOps = p < 0 ? 0 : read ? px!.reads[p] : px!.writes[p];
          if (p >= 0 && (read ? px!.smallReadBytes[p] : px!.smallWriteBytes[p]) / libBytes > ctx.options.bytes && pOps > ops) {
            rows.push({ id, layer: 'POSIX', small: read ? px!.smallReads[p] : px!.smallWrites[p], total: pOps, collective: false, independent: pOps, time: posixTime(id, read), bytes: Math.max(0, read ? px!.bytesRead[p] : px!.bytesWritten[p]) });
            continue;
          }
        }
      }
      rows.push(row);
    }
    if (mp) for (let i = 0; i < mp.ids.length; i++) {
      if (judged.has(mp.ids[i])) continue;
      judged.add(mp.ids[i]);
      rows.push(mpiioRow(i, read));
    }
    let allTime = 0, streamBytes = 0;
    const streams: Row[] = [];
    // Streams: STDIO requests (a stream's descriptor may also have a POSIX record, through fileno(): its fsync time
    // belongs to the stream's writes).
    if (sf) for (let i = 0; i < sf.ids.length; i++) {
      const time = Math.max(0, read ? sf.readTime[i] : sf.writeTime[i]);
      allTime += time;
      const n = read ? sf.reads[i] : sf.writes[i];
      if (judged.has(sf.ids[i]) || !(sf.reads[i] + sf.writes[i] > 0)) continue;
      judged.add(sf.ids[i]);
      const bytes = read ? sf.bytesRead[i] : sf.bytesWritten[i];
      // The stream's buffer (st_blksize: 4 KiB on a local disk, the stripe size on Lustre) merges small records
      // before the file system, unless every record is flushed.
      const buffered = !(sf.flushes[i] >= 0.9 * n);
      const small = n > 0 && bytes / n < SMALL_LIMIT ? n : 0;
      if (small) streamBytes += bytes;
      streams.push({ id: sf.ids[i], layer: 'STDIO', small, total: n, collective: buffered, independent: n, time: time + posixTime(sf.ids[i], read), bytes: Math.max(0, bytes) });
    }
    // Streams moving little in all (an input deck read line by line) are not a data path.
    for (const r of streams) rows.push(streamBytes >= ctx.options.minBytes ? r : { ...r, small: 0 });
    // the rest of the POSIX files (ids are distinct: row i is the file's POSIX row, its time is row i's). A file with
    // no small requests only adds to the totals: no row for it (a log may hold 100,000 files), nor for any file
    // when only the direction's totals are asked for.
    const rest: Rest = { total: 0, zeroTime: 0 };
    const judgedRow = px && judged.size > 0 ? rowsHolding(px.ids, judged) : null;
    const posix = new Int32Array(px && posixRows ? px.ids.length : 0);
    let k = 0;
    if (px) for (let i = 0; i < px.ids.length; i++) {
      const time = Math.max(0, read ? px.readTime[i] : px.writeTime[i]);
      allTime += time;
      if (judgedRow && judgedRow[i]) continue;
      const n = read ? px.reads[i] : px.writes[i];
      const small = read ? px.smallReads[i] : px.smallWrites[i];
      if (small > 0 && posixRows) posix[k++] = i;
      else {
        rest.total += Math.max(0, n);
        if (n > 0) rest.zeroTime += time * 0;
      }
    }
    return { rows, posix: posix.subarray(0, k), allTime, rest };
  };
  /** The row of a POSIX file `build` kept by number (its small requests are > 0). */
  const posixRowOf = (i: number, read: boolean): Row => {
    const n = read ? px!.reads[i] : px!.writes[i];
    return { id: px!.ids[i], layer: 'POSIX', small: read ? px!.smallReads[i] : px!.smallWrites[i], total: n, collective: false, independent: n, time: Math.max(0, read ? px!.readTime[i] : px!.writeTime[i]), bytes: Math.max(0, read ? px!.bytesRead[i] : px!.bytesWritten[i]) };
  };
  const read = dir === 'read';
  const { rows, posix, allTime, rest } = build(read, true);

  // The small requests' time: each file's time of this direction at the layer the application called (the time
  // model), in proportion to its small requests. Files without small requests weigh in the totals only (`zeroTime`
  // keeps a NaN or infinite time as a row would). Sums run over `rows`, then the POSIX files in order.
  const model = modelOf(ctx);
  const ops = read ? DATA_OPS.read : DATA_OPS.write;
  // `smallBytes`: the bytes those requests moved (each file's bytes of this direction in proportion to its small
  // requests: what the same work moves, done well, in savings.ts).
  let small = 0, total = rest.total, costly = 0, smallTime = rest.zeroTime, smallBytes = 0;
  for (const r of rows) {
    small += Math.max(0, r.small);
    total += Math.max(0, r.total);
    if (!r.collective) costly += Math.max(0, r.small);
    if (r.total > 0) {
      const k = Math.min(1, Math.max(0, r.small) / r.total);
      smallTime += (model ? secondsOf(model, r.id, ops) : r.time) * k;
      smallBytes += r.bytes * k;
    }
  }
  if (posix.length) {
    const smalls = read ? px!.smallReads : px!.smallWrites, totals = read ? px!.reads : px!.writes, times = read ? px!.readTime : px!.writeTime, bytes = read ? px!.bytesRead : px!.bytesWritten;
    for (let j = 0; j < posix.length; j++) {
      const i = posix[j];
      const s = Math.max(0, smalls[i]), n = totals[i];
      small += s;
      total += Math.max(0, n);
      costly += s;
      if (n > 0) {
        smallTime += (model ? secondsOf(model, px!.ids[i], ops) : Math.max(0, times[i])) * Math.min(1, s / n);
        smallBytes += Math.max(0, bytes[i]) * Math.min(1, s / n);
      }
    }
  }
  const share = total ? small / total : 0;
  // Against the job's I/O time (summed over ranks, as the calls' time is).
  const ioSeconds = model?.cumulativeIoTime ?? 0;
  const timeShare = ioSeconds > 0 ? smallTime / ioSeconds : allTime > 0 ? smallTime / allTime : share;
  const o = ctx.options;
  if (!(small >= o.min && share > o.warn)) return;
  const details: DetailInput<'file'>[] = [];
  for (const r of significantRows(rows, posix, read ? px?.smallReads : px?.smallWrites, (i) => posixRowOf(i, read))) {
    const subject = ctx.file(r.id);
    details.push({ messageId: 'file', data: { count: r.small, ratio: r.total ? r.small / r.total : 0, layer: r.layer, file: subjectName(subject) }, subject });
  }
  const layers = new Set<Layer>();
  for (const r of rows) if (r.small > 0) layers.add(r.layer);
  const recs: Rec[] = ['coalesce'];
  // Collective calls only where some small requests are not collective yet (never recommend what the job does).
  const independentPosix = () => {
    const totals = read ? px!.reads : px!.writes;
    for (let j = 0; j < posix.length; j++) if (totals[posix[j]] > 0) return true;
    return false;
  };
  if (mp && (rows.some((r) => r.small > 0 && r.independent > 0 && r.layer !== 'STDIO') || independentPosix())) recs.push('collective');
  if (layers.has('HDF5')) recs.push('hdf5Chunk');
  ctx.report({
    level: total && costly / total > o.high && timeShare > o.time ? 'HIGH' : 'WARN',
    cost: { seconds: smallTime },
    savings: { kind: 'data', seconds: smallTime, readBytes: read ? smallBytes : 0, writeBytes: read ? 0 : smallBytes },
    messageId: 'many',
    data: { count: small, total, ratio: share },
    evidence: [
      { name: `small${w.Op}s`, value: small, unit: 'count', source: 'H5D/PNETCDF_VAR, MPIIO_SIZE_*_AGG or POSIX_SIZE_* bins below 1 MiB, refined with *_ACCESS1..4; STDIO requests of streams whose mean request is below 1 MiB' },
      { name: w.ops, value: total, unit: 'count', source: 'H5D_/PNETCDF_VAR_, MPIIO_, POSIX_ or STDIO_ request counters' },
      { name: 'share', value: share, unit: 'ratio', source: 'hl.files, mpiio.files, posix.files, stdio.files' },
    ],
    details,
    recommendations: recs,
  });
}

/**
 * `significant(all, (r) => r.small)` where `all` is `rows` followed by the POSIX files numbered in `posix` (`smalls`:
 * their small requests): the same rows in the same order, a row made (`posixRow`) only for the POSIX files kept.
 */
export function significantRows(rows: readonly Row[], posix: Int32Array, smalls: Float64Array | undefined, posixRow: (i: number) => Row): Row[] {
  if (!posix.length || !smalls) return significant(rows, (x) => x.small);
  let total = 0;
  for (const r of rows) total += Math.max(0, r.small);
  for (let j = 0; j < posix.length; j++) total += Math.max(0, smalls[posix[j]]);
  const kept = (w: number) => w > 0 && w >= SIGNIFICANT_SHARE * total;
  const out = rows.filter((r) => kept(r.small));
  for (let j = 0; j < posix.length; j++) if (kept(smalls[posix[j]])) out.push(posixRow(posix[j]));
  return out.sort((a, b) => b.small - a.small);
}
