import { defineCheck } from '../define-check.js';
import type { Check, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/**
 * P15/P16: many small requests to shared files. "Shared" means Darshan's reduced records (rank −1, a file opened
 * by every rank); files opened by a subset of ranks keep per-rank records and are not counted (SPEC §3).
 */
export function sharedSmallRequests(code: 'P15' | 'P16', dir: Direction): Check<'ratio' | 'absolute', 'many' | 'file', 'collective'> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `shared-file-small-${w.ops}`,
      title: `Shared files get large ${w.ops}`,
      failureTitle: `Many small ${w.ops} to shared files`,
      description:
        `Many ranks issuing small ${w.ops} to the same file contend for its locks and servers. Collective MPI-IO lets ` +
        `a few aggregator ranks turn them into large contiguous requests.`,
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'file',
      level: 'HIGH',
      problem: dir === 'read' ? 'small-reads' : 'small-writes',
      requires: ['posix.shared'],
      options: {
        ratio: { knob: 'small_requests', description: `Minimum share of small ${w.ops} among shared-file ${w.ops}.` },
        absolute: { knob: 'small_requests_absolute', description: `Minimum number of small shared-file ${w.ops}.` },
      },
      messages: {
        many: `{count} small ${w.noun} to shared files (up to a mebibyte each), {ratio:pct} of all shared-file ${w.ops}`,
        file: `{count} small ${w.noun} ({ratio:pct} of shared-file ${w.ops}) go to "{file}"`,
      },
      recommendations: {
        collective: {
          text: `Merge the small ${w.ops} into large contiguous ones with collective MPI-IO (MPI_File_${w.op}_all), letting aggregators do the I/O`,
          snippet: dir === 'read' ? 'mpi-io-collective-read.c' : 'mpi-io-collective-write.c',
        },
      },
      compat: { drishti: code },
    },
    run(ctx) {
      const s = ctx.fact('posix.shared');
      const total = dir === 'read' ? s.reads : s.writes;
      const small = dir === 'read' ? s.smallReads : s.smallWrites;
      const { ratio, absolute } = ctx.options;
      if (!(total && small / total > ratio && small > absolute)) return;
      const per = dir === 'read' ? s.smallReadsPerRecord : s.smallWritesPerRecord;
      const cut = (total * ratio) / 2;
      const details: DetailInput<'file'>[] = [];
      for (let i = 0; i < s.ids.length; i++) {
        if (per[i] > cut) {
          const subject = ctx.file(s.ids[i]);
          details.push({ messageId: 'file', data: { count: per[i], ratio: per[i] / total, file: subject.kind === 'file' ? subject.name : '' }, subject });
        }
      }
      ctx.report({
        messageId: 'many',
        data: { count: small, ratio: small / total },
        evidence: [
          { name: `sharedSmall${w.Op}s`, value: small, unit: 'count', source: 'POSIX_SIZE_* ≤ 1 MiB of rank −1 records' },
          { name: `shared${w.Op}s`, value: total, unit: 'count', source: dir === 'read' ? 'POSIX_READS of rank −1 records' : 'POSIX_WRITES of rank −1 records' },
        ],
        details,
        recommendations: ['collective'],
      });
    },
  });
}
