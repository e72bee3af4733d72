import { DarshanLog } from '../formats/darshan/index.js';
import { computePerf, computeTablePerf, PERF_MODULES } from '../formats/darshan/perf.js';
import { defineFact, type FactReader } from './define-fact.js';
import type { FactSource } from './source.js';
import type { LayerIo } from './types.js';

const MIB = 1024 * 1024;

export default defineFact({
  name: 'io.summary',
  description:
    "The job's I/O against its run time: per layer the bytes, the cumulative time over ranks and Darshan's slowest-rank time and throughput (darshan-parser --perf), and the job's I/O time (the slowest rank at the layer the application called: the larger of MPI-IO and POSIX, plus STDIO) as a share of the run time.",
  compute(src, facts) {
    const job = facts.get('job');
    const layers = src.log instanceof DarshanLog ? logLayers(src.log, facts) : derivedLayers(src);
    // The I/O time the application saw: the slowest rank at the layer it called. MPI-IO time contains the POSIX
    // time of its calls (and what collective buffering adds), so the larger of MPI-IO and POSIX counts, plus STDIO.
    const time = (name: string) => layers.find((l) => l.layer === name)?.slowestRankTime ?? 0;
    const ioTime = Math.max(time('POSIX'), time('MPI-IO')) + time('STDIO');
    const bytes = layers.filter((l) => l.layer === 'POSIX' || l.layer === 'STDIO').reduce((a, l) => a + l.bytesRead + l.bytesWritten, 0);
    const runTime = job.runSeconds;
    return { runTime, ioTime, ioShare: runTime > 0 ? Math.min(1, ioTime / runTime) : null, bytes, layers };
  },
});

/**
 * Layers of counters derived from a trace: the same estimate over the derived tables, for each layer whose bytes,
 * times and slowest-rank time the trace supplies (a layer it cannot time is left out; the report says so).
 */
function derivedLayers(src: FactSource): LayerIo[] {
  const layers: LayerIo[] = [];
  for (const m of PERF_MODULES) {
    const t = src.fixed(m.name);
    if (!t || t.length === 0) continue;
    const p = m.prefix;
    const need = [`${p}_BYTES_READ`, `${p}_BYTES_WRITTEN`, `${p}_F_READ_TIME`, `${p}_F_WRITE_TIME`, `${p}_F_META_TIME`, `${p}_F_SLOWEST_RANK_TIME`];
    if (need.some((c) => src.log.absent?.reason(c))) continue;
    const e = computeTablePerf(t, src.log.job.nprocs);
    const sum = (col: Float64Array) => col.reduce((a, v) => a + Math.max(0, v), 0);
    layers.push({
      layer: m.name,
      bytesRead: sum(t.int(need[0])),
      bytesWritten: sum(t.int(need[1])),
      cumulativeTime: sum(t.float(need[2])) + sum(t.float(need[3])) + sum(t.float(need[4])),
      slowestRankTime: e.aggTimeBySlowest,
      throughput: e.aggTimeBySlowest > 0 ? e.aggPerfBySlowest * MIB : null,
    });
  }
  return layers;
}

/** Layers of a Darshan log: darshan-parser's --perf estimate beside the module totals. */
function logLayers(log: DarshanLog, facts: FactReader): LayerIo[] {
  const totals = new Map(facts.get('modules.totals').modules.map((m) => [m.module, m]));
  let perf: ReturnType<typeof computePerf> = [];
  try {
    perf = computePerf(log);
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
  return layers;
}
