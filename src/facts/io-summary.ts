import { DarshanLog } from '../formats/darshan/index.js';
import { computePerf } from '../formats/darshan/perf.js';
import { defineFact } from './define-fact.js';
import type { LayerIo } from './types.js';

const MIB = 1024 * 1024;

export default defineFact({
  name: 'io.summary',
  description:
    "The job's I/O against its run time: per layer the bytes, the cumulative time over ranks and Darshan's slowest-rank time and throughput (darshan-parser --perf), and the job's I/O time (POSIX + STDIO slowest-rank time) as a share of the run time.",
  compute(src, facts) {
    const job = facts.get('job');
    const totals = new Map(facts.get('modules.totals').modules.map((m) => [m.module, m]));
    let perf: ReturnType<typeof computePerf> = [];
    try {
      // Darshan's --perf estimates need a log; counters derived from a trace give no per-layer estimate.
      perf = src.log instanceof DarshanLog ? computePerf(src.log) : [];
    } catch {
      perf = [];
    }
    const layers: LayerIo[] = [];
    for (const p of perf) {
      const t = totals.get(p.module);
      if (!t || t.records === 0) continue;
      layers.push({
        layer: p.module,
        bytesRead: t.bytesRead,
        bytesWritten: t.bytesWritten,
        cumulativeTime: t.readTime + t.writeTime + t.metaTime,
        slowestRankTime: p.aggTimeBySlowest,
        throughput: p.aggTimeBySlowest > 0 ? p.aggPerfBySlowest * MIB : null,
      });
    }
    const lowest = layers.filter((l) => l.layer === 'POSIX' || l.layer === 'STDIO');
    const ioTime = lowest.reduce((a, l) => a + l.slowestRankTime, 0);
    const bytes = lowest.reduce((a, l) => a + l.bytesRead + l.bytesWritten, 0);
    const runTime = job.runSeconds;
    return { runTime, ioTime, ioShare: runTime > 0 ? Math.min(1, ioTime / runTime) : null, bytes, layers };
  },
});
