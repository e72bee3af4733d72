import { cF6 } from '../../../util/cfmt.js';
import type { ByteSink } from '../../../util/byte-sink.js';
import type { DarshanLog } from '../log.js';
import { computeModulePerf, hasPerfSupport, type PerfEstimate } from '../perf.js';
import { incompleteNotice, moduleBanner, printJobHeader, visitModuleSections } from './parser-text.js';
import type { TextOut } from './text-out.js';

/** The `# performance` block of one module: data lines exactly as darshan-parser --perf prints them. */
export function perfBlock(e: PerfEstimate): string {
  return (
    '\n# performance\n' +
    '# -----------\n' +
    `# total_bytes: ${e.totalBytesText}\n` +
    '#\n' +
    '# unique files (opened by one rank): the rank with the most I/O time in them, seconds\n' +
    `# unique files: slowest_rank_io_time: ${cF6(e.slowestRankIoTime)}\n` +
    `# unique files: slowest_rank_meta_only_time: ${cF6(e.slowestRankMetaOnlyTime)}\n` +
    `# unique files: slowest_rank_rw_only_time: ${cF6(e.slowestRankRwOnlyTime)}\n` +
    `# unique files: slowest_rank: ${e.slowestRank}\n` +
    '#\n' +
    '# shared (all-rank) files: sum over them of the slowest rank\'s time in each, seconds\n' +
    `# shared files: time_by_slowest: ${cF6(e.sharedTimeBySlowest)}\n` +
    '#\n' +
    '# estimate for the whole module: unique-file time of the slowest rank + shared-file time\n' +
    `# agg_time_by_slowest: ${cF6(e.aggTimeBySlowest)} # seconds\n` +
    `# agg_perf_by_slowest: ${cF6(e.aggPerfBySlowest)} # MiB/s\n`
  );
}

/**
 * What `darshan-parser --perf --show-incomplete` prints: job header, regions and mounts, then a performance block
 * for each module that has estimates (POSIX, MPI-IO, STDIO, DFS, DAOS). Other modules print nothing, except a
 * module flagged incomplete with no records at all, which gets its banner and notice as in darshan-parser.
 * Warnings and errors go to `warn`, one line each.
 */
export function printPerfText(log: DarshanLog, out: TextOut | ByteSink, warn: (line: string) => void): void {
  printJobHeader(log, out);
  const allEmpty = visitModuleSections(log, warn, ({ id, name, regionLen, partial }) => {
    // Only modules with darshan-util accumulators get a section; others print nothing unless empty and incomplete.
    if (regionLen > 0 && !hasPerfSupport(id)) return;
    out.write(moduleBanner(name));
    if (partial) out.write(incompleteNotice(name));
    if (regionLen === 0) return;
    const e = computeModulePerf(log, id);
    if (!e) return;
    if (e.decodeError) {
      warn(`Error: failed to parse ${name} module record. (${e.decodeError})`);
      return;
    }
    if (e.ranksBeyondNprocs > 0) {
      const n = e.ranksBeyondNprocs;
      warn(
        `# Warning: ${name}: ${n} record${n === 1 ? ' has a rank' : 's have ranks'} >= nprocs (${log.job.nprocs}); ` +
          'counted as those ranks\' unique-file I/O (darshan-parser aborts here).',
      );
    }
    out.write(perfBlock(e));
  });
  if (allEmpty) out.write('\n# no module data available.\n');
}
