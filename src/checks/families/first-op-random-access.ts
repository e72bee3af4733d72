import type { CheckContext, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';
import { DATA_OPS, hasRow, modelOf, secondsOf, significant, subjectName } from './diagnosis-common.js';

/**
 * D16/D17: random POSIX access. Darshan counts a request as sequential when its offset is past the previous one
 * (consecutive ones included); the first request of each rank on a file has no previous one and is neither. Drishti
 * calls that first request random, so a job touching thousands of one-request files looks 100% random. Here random
 * = requests − sequential − one first request per rank and file. The job needs `random_min` random requests, or
 * random requests moving `random_bytes_min` (incidental jumps — a header rewritten, metadata reread — are small; a
 * few multi-MiB requests out of order are the data itself).
 *
 * Random requests of a file HDF5 or PnetCDF manages count only beyond its small (sub-1 MiB) requests: the library
 * rewrites its metadata in place, in small requests, whatever order the application keeps.
 *
 * STDIO keeps no sequence counters, but a stream read (or written) in order needs no repositioning: a stream used in
 * one direction with an fseek before more than `random_operations` of its requests (beyond the one at open) is taken
 * as random — an estimate (strided access repositions too), so WARN at most.
 */
/** No POSIX files (a STDIO-only job). */
const EMPTY_POSIX = { ids: new BigUint64Array(0), smallReads: new Float64Array(0), smallWrites: new Float64Array(0), reads: new Float64Array(0), writes: new Float64Array(0), seqReads: new Float64Array(0), seqWrites: new Float64Array(0), bytesRead: new Float64Array(0), bytesWritten: new Float64Array(0), shared: new Float64Array(0), rankRecords: new Float64Array(0) };

export function runFirstOpRandomAccess(ctx: CheckContext<'ratio' | 'min' | 'large' | 'bytes', 'random' | 'file', 'order' | 'collective'>, dir: Direction): void {
  const w = WORDS[dir];
  const p = ctx.tryFact('posix.files') ?? EMPTY_POSIX;
  const sf = ctx.tryFact('stdio.files');
  const nprocs = Math.max(1, ctx.fact('job').processes);
  const ops = dir === 'read' ? p.reads : p.writes;
  const seq = dir === 'read' ? p.seqReads : p.seqWrites;
  const bytes = dir === 'read' ? p.bytesRead : p.bytesWritten;
  const model = modelOf(ctx);
  const timeOps = dir === 'read' ? DATA_OPS.read : DATA_OPS.write;
  let random = 0, total = 0, randomBytes = 0, randomOps = 0, seconds = 0;
  // HDF5/PnetCDF place their metadata (superblock, headers, indexes, the netCDF header) where they must and update it
  // in place: a file they manage jumps back for those small requests whatever the application does.
  const hl = ctx.tryFact('hl.files');
  const managed = new Set<bigint>(hl ? hl.ids : []);
  const small = dir === 'read' ? p.smallReads : p.smallWrites;
  const per: { i: number; n: number }[] = [];
  const stdioRows: { id: bigint; n: number; ops: number }[] = [];
  for (let i = 0; i < p.ids.length; i++) {
    if (ops[i] <= 0) continue;
    // Ranks that issued requests of this direction: the per-rank records, or every rank for a shared record.
    const firsts = p.shared[i] ? nprocs : Math.max(1, p.rankRecords[i]);
    let n = Math.max(0, ops[i] - Math.max(0, seq[i]) - Math.min(firsts, ops[i]));
    if (managed.size > 0 && small && managed.has(p.ids[i])) n = Math.max(0, n - Math.max(0, small[i]));
    random += n;
    total += ops[i];
    if (n > 0) {
      seconds += (secondsOf(model, p.ids[i], timeOps) * n) / ops[i];
      per.push({ i, n });
      randomBytes += Math.max(0, bytes[i]);
      randomOps += ops[i];
    }
  }
  let estimated = false;
  if (sf) {
    const posixOps = hasRow(p.ids, (i) => p.reads[i] + p.writes[i] > 0);
    for (let i = 0; i < sf.ids.length; i++) {
      const mine = dir === 'read' ? sf.reads[i] : sf.writes[i];
      const theirs = dir === 'read' ? sf.writes[i] : sf.reads[i];
      if (!(mine > 0) || theirs > 0 || posixOps(sf.ids[i])) continue;
      const n = Math.min(mine - 1, Math.max(0, sf.seeks[i] - sf.opens[i]));
      total += mine;
      if (!(n > 0)) continue;
      random += n;
      seconds += (secondsOf(model, sf.ids[i], timeOps) * n) / mine;
      estimated = true;
      stdioRows.push({ id: sf.ids[i], n, ops: mine });
      randomBytes += Math.max(0, dir === 'read' ? sf.bytesRead[i] : sf.bytesWritten[i]);
      randomOps += mine;
    }
  }
  const share = total ? random / total : 0;
  // Random requests × the mean request of their files: the bytes that moved out of order.
  const movedOutOfOrder = randomOps > 0 ? (random * randomBytes) / randomOps : 0;
  if (!((random >= ctx.options.min || movedOutOfOrder >= ctx.options.bytes) && share > ctx.options.ratio)) return;
  const rows = [...per.map(({ i, n }) => ({ id: p.ids[i], n, ops: ops[i] })), ...stdioRows];
  const details: DetailInput<'file'>[] = significant(rows, (x) => x.n).map(({ id, n, ops: o }) => {
    const subject = ctx.file(id);
    return { messageId: 'file' as const, data: { count: n, ratio: n / o, file: subjectName(subject) }, subject };
  });
  ctx.report({
    // Random small requests pay a seek and a server round trip each; random multi-MiB requests mostly stream.
    level: !estimated && randomBytes / randomOps < ctx.options.large ? 'HIGH' : 'WARN',
    cost: { seconds },
    // Done well: the same bytes in order, at the job's (or the reference) large-request bandwidth.
    savings: { kind: 'data', seconds, readBytes: dir === 'read' ? movedOutOfOrder : 0, writeBytes: dir === 'write' ? movedOutOfOrder : 0 },
    messageId: 'random',
    data: { count: random, total, ratio: share },
    evidence: [
      { name: 'random', value: random, unit: 'count', source: (dir === 'read' ? 'POSIX_READS − POSIX_SEQ_READS − first read per rank' : 'POSIX_WRITES − POSIX_SEQ_WRITES − first write per rank') + (estimated ? '; streams: STDIO_SEEKS − STDIO_OPENS' : '') },
      { name: w.ops, value: total, unit: 'count', source: dir === 'read' ? 'POSIX_READS' : 'POSIX_WRITES' },
    ],
    details,
    recommendations: ctx.hasModule('MPI-IO') ? ['order', 'collective'] : ['order'],
  });
}
