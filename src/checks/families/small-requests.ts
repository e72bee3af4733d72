import { defineCheck } from '../define-check.js';
import type { Check, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';

type Rec = 'coalesce' | 'collective' | 'adoptMpiio';

/**
 * P05/P06: many small POSIX requests. Small = Darshan's histogram bins up to 1 MiB (inclusive). Fires when
 * small/all > small_requests and small > small_requests_absolute; details list files whose small requests exceed
 * half the ratio threshold times all requests of that direction (Drishti's cut-off).
 */
export function smallRequests(code: 'P05' | 'P06', dir: Direction): Check<'ratio' | 'absolute', 'many' | 'file', Rec> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `small-${w.ops}`,
      title: `POSIX ${w.ops} are mostly large`,
      failureTitle: `Many small POSIX ${w.ops}`,
      description:
        `Each POSIX ${w.op} costs a system call and, on a parallel file system, at least one round trip to a server. ` +
        `Many ${w.ops} of at most 1 MiB spend more time in latency than in moving data.`,
      panel: 'OPERATIONS',
      layer: 'POSIX',
      scope: 'file',
      level: 'HIGH',
      problem: dir === 'read' ? 'small-reads' : 'small-writes',
      requires: ['posix.totals', 'posix.byFile'],
      options: {
        ratio: { knob: 'small_requests', description: `Minimum share of small ${w.ops} among all POSIX ${w.ops}.` },
        absolute: { knob: 'small_requests_absolute', description: `Minimum number of small ${w.ops}.` },
      },
      messages: {
        many: `{count} small ${w.noun} (up to a mebibyte each), {ratio:pct} of all POSIX ${w.ops}`,
        file: `{count} small ${w.noun} ({ratio:pct} of all ${w.ops}) go to "{file}"`,
      },
      recommendations: {
        coalesce: { text: `Aggregate small ${w.ops} into fewer, larger, contiguous requests (buffer in memory, then ${w.op} in large blocks)` },
        collective: {
          text: `The job already uses MPI-IO: switch to collective ${w.ops} (MPI_File_${w.op}_all / MPI_File_${w.op}_at_all) so that aggregators merge requests`,
          snippet: dir === 'read' ? 'mpi-io-collective-read.c' : 'mpi-io-collective-write.c',
        },
        adoptMpiio: { text: `Use MPI-IO (or a library over it such as HDF5 or PnetCDF) to get collective I/O, which merges small requests across ranks` },
      },
      compat: { drishti: code, marks: ['small_requests_absolute'] },
    },
    run(ctx) {
      const t = ctx.fact('posix.totals');
      const total = dir === 'read' ? t.reads : t.writes;
      const small = dir === 'read' ? t.smallReads : t.smallWrites;
      const { ratio, absolute } = ctx.options;
      if (!(small && small / total > ratio && small > absolute)) return;
      const f = ctx.fact('posix.byFile');
      const perFile = dir === 'read' ? f.smallReads : f.smallWrites;
      const cut = (total * ratio) / 2;
      const details: DetailInput<'file'>[] = [];
      for (let i = 0; i < f.ids.length; i++) {
        if (perFile[i] > cut) {
          const subject = ctx.file(f.ids[i]);
          details.push({ messageId: 'file', data: { count: perFile[i], ratio: perFile[i] / total, file: subject.kind === 'file' ? subject.name : '' }, subject });
        }
      }
      const bins = dir === 'read' ? 'POSIX_SIZE_READ_0_100 … POSIX_SIZE_READ_100K_1M' : 'POSIX_SIZE_WRITE_0_100 … POSIX_SIZE_WRITE_100K_1M';
      ctx.report({
        messageId: 'many',
        data: { count: small, ratio: small / total },
        evidence: [
          { name: `small${w.Op}s`, value: small, unit: 'count', source: bins },
          { name: w.ops, value: total, unit: 'count', source: dir === 'read' ? 'POSIX_READS' : 'POSIX_WRITES' },
        ],
        details,
        recommendations: ['coalesce', ctx.hasModule('MPI-IO') ? 'collective' : 'adoptMpiio'],
      });
    },
  });
}
