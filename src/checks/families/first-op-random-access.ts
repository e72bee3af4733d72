import { defineCheck } from '../define-check.js';
import type { Check, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';
import { significant, subjectName } from './diagnosis-common.js';

/**
 * D16/D17: random POSIX access. Darshan counts a request as sequential when its offset is past the previous one
 * (consecutive ones included); the first request of each rank on a file has no previous one and is neither. Drishti
 * calls that first request random, so a job touching thousands of one-request files looks 100% random. Here random
 * = requests − sequential − one first request per rank and file.
 */
export function firstOpRandomAccess(code: 'D16' | 'D17', dir: Direction, supersedes: readonly string[]): Check<'ratio' | 'min' | 'large', 'random' | 'file', 'order' | 'collective'> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `random-${w.ops}`,
      title: `POSIX ${w.ops} follow the file order`,
      failureTitle: `Random POSIX ${w.ops}`,
      description: `Requests that jump backwards or around a file defeat read-ahead and write-behind and turn streaming into seeks; on a parallel file system each jump can hit another server.`,
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'file',
      level: 'HIGH',
      problem: dir === 'read' ? 'random-read' : 'random-write',
      requires: ['posix.files', 'job'],
      modes: ['default'],
      supersedes,
      options: {
        ratio: { knob: 'random_operations', description: `Share of random ${w.ops} above which access is random.` },
        min: { knob: 'random_min', description: `Minimum number of random ${w.ops}.` },
        large: { knob: 'large_piece_bytes', description: `Mean ${w.op} size of the files with random ${w.ops} from which the finding is WARN rather than HIGH.` },
      },
      messages: {
        random: `{count} of {total} POSIX ${w.ops} ({ratio:pct}) go backwards or jump around the file`,
        file: `{count} random ${w.ops} ({ratio:pct} of the file's) on "{file}"`,
      },
      recommendations: {
        order: { text: `Sort or batch requests by offset before issuing them, so each rank walks its part of the file forwards` },
        collective: { text: `With MPI-IO, describe the pattern with a file view and use collective ${w.ops}: ROMIO reorders the pieces into large contiguous requests`, snippet: dir === 'read' ? 'mpi-io-collective-read.c' : 'mpi-io-collective-write.c' },
      },
      compat: { differences: [{ id: 'first-request', description: "Drishti counts each rank's first request on a file as random; this check does not, and needs `random_min` random requests instead of 1000." }] },
    },
    run(ctx) {
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
    },
  });
}
