import { cF6 } from '../../../util/cfmt.js';
import type { ByteSink } from '../../../util/byte-sink.js';
import type { DarshanLog } from '../log.js';
import { MODULES } from '../modules/registry.js';
import { computeModulePerf, hasPerfSupport, type PerfEstimate } from '../perf.js';
import { incompleteNotice, moduleBanner, printJobHeader } from './parser-text.js';
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
  let empty = 0;
  for (let i = 0; i < 64; i++) {
    const region = log.header.moduleRegions[i];
    const partial = log.isPartial(i);
    const row = MODULES[i];
    if (region.len === 0) {
      empty++;
      if (!partial) continue;
    } else if (!row) {
      warn(`# Warning: module id ${i} is unknown. You may need a newer version of IOLens to parse it.`);
      continue;
    } else if (!row.codec || !row.codec.print) {
      if (row.name !== 'DXT_POSIX' && row.name !== 'DXT_MPIIO') warn(`# Warning: no log utility handlers defined for module ${row.name}, SKIPPING.`);
      continue;
    } else if (row.name === 'DXT_POSIX' || row.name === 'DXT_MPIIO' || !hasPerfSupport(i)) {
      continue;
    }
    const name = row ? row.name : '<UNKNOWN>';
    out.write(moduleBanner(name));
    if (partial) out.write(incompleteNotice(name));
    if (region.len === 0) continue;
    const e = computeModulePerf(log, i);
    if (!e) continue;
    if (e.decodeError) {
      warn(`Error: failed to parse ${name} module record. (${e.decodeError})`);
      continue;
    }
    if (e.ranksBeyondNprocs > 0) {
      const n = e.ranksBeyondNprocs;
      warn(
        `# Warning: ${name}: ${n} record${n === 1 ? ' has a rank' : 's have ranks'} >= nprocs (${log.job.nprocs}); ` +
          'counted as those ranks\' unique-file I/O (darshan-parser aborts here).',
      );
    }
    out.write(perfBlock(e));
  }
  if (empty === 64) out.write('\n# no module data available.\n');
}
