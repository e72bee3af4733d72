import type { CheckContext, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';
import { significant, subjectName } from './diagnosis-common.js';

/**
 * D16/D17: random POSIX access. Darshan counts a request as sequential when its offset is past the previous one
 * (consecutive ones included); the first request of each rank on a file has no previous one and is neither. Drishti
 * calls that first request random, so a job touching thousands of one-request files looks 100% random. Here random
 * = requests − sequential − one first request per rank and file.
 */
export function runFirstOpRandomAccess(ctx: CheckContext<'ratio' | 'min' | 'large', 'random' | 'file', 'order' | 'collective'>, dir: Direction): void {
  const w = WORDS[dir];
  const p = ctx.fact('posix.files');
  const nprocs = Math.max(1, ctx.fact('job').processes);
  const ops = dir === 'read' ? p.reads : p.writes;
  const seq = dir === 'read' ? p.seqReads : p.seqWrites;
  const bytes = dir === 'read' ? p.bytesRead : p.bytesWritten;
  let random = 0, total = 0, randomBytes = 0, randomOps = 0;
  const per: { i: number; n: number }[] = [];
  for (let i = 0; i < p.ids.length; i++) {
    if (ops[i] <= 0) continue;
    // Ranks that issued requests of this direction: the per-rank records, or every rank for a shared record.
    const firsts = p.shared[i] ? nprocs : Math.max(1, p.rankRecords[i]);
    const n = Math.max(0, ops[i] - Math.max(0, seq[i]) - Math.min(firsts, ops[i]));
    random += n;
    total += ops[i];
    if (n > 0) {
      per.push({ i, n });
      randomBytes += Math.max(0, bytes[i]);
      randomOps += ops[i];
    }
  }
  const share = total ? random / total : 0;
  if (!(random >= ctx.options.min && share > ctx.options.ratio)) return;
  const details: DetailInput<'file'>[] = significant(per, (x) => x.n).map(({ i, n }) => {
    const subject = ctx.file(p.ids[i]);
    return { messageId: 'file' as const, data: { count: n, ratio: n / ops[i], file: subjectName(subject) }, subject };
  });
  ctx.report({
    // Random small requests pay a seek and a server round trip each; random multi-MiB requests mostly stream.
    level: randomBytes / randomOps < ctx.options.large ? 'HIGH' : 'WARN',
    cost: { share, basis: 'operations' },
    messageId: 'random',
    data: { count: random, total, ratio: share },
    evidence: [
      { name: 'random', value: random, unit: 'count', source: dir === 'read' ? 'POSIX_READS − POSIX_SEQ_READS − first read per rank' : 'POSIX_WRITES − POSIX_SEQ_WRITES − first write per rank' },
      { name: w.ops, value: total, unit: 'count', source: dir === 'read' ? 'POSIX_READS' : 'POSIX_WRITES' },
    ],
    details,
    recommendations: ctx.hasModule('MPI-IO') ? ['order', 'collective'] : ['order'],
  });
}
