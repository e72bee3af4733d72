import { DarshanLog } from '../formats/darshan/index.js';
import { computePerf, computeTablePerf, PERF_MODULES } from '../formats/darshan/perf.js';
import { defineFact, type FactReader } from './define-fact.js';
import type { FactSource } from './source.js';
import type { LayerIo } from './types.js';
import { rankTimes, topFiles, type TimeModel } from './time-model.js';
import type { IoSummaryFact } from './types.js';

const MIB = 1024 * 1024;

export default defineFact({
  name: 'io.summary',
  description:
    "The report's io section: the time model's I/O time in both semantics (slowest rank; summed over ranks), its share of the run time, the breakdown by layer × operation, the costliest files, how the time spreads over ranks, and per layer the bytes, the cumulative time and darshan-parser --perf's slowest-rank estimate.",
  compute(src, facts) {
    const m = facts.get('io.time');
    const layers = src.log instanceof DarshanLog ? logLayers(src.log, facts) : derivedLayers(src);
    // Bytes at the lowest layers: POSIX and STDIO.
    const bytes = layers.filter((l) => l.layer === 'POSIX' || l.layer === 'STDIO').reduce((a, l) => a + l.bytesRead + l.bytesWritten, 0);
    return ioSummaryOf(m, layers, bytes, (key) => src.fileName(key));
  },
});

/** The report's io section from a time model (the one place it is made: logs here, traces in their pipeline). */
export function ioSummaryOf(m: TimeModel, layers: IoSummaryFact['layers'], bytes: number, fileName: (key: bigint) => string): IoSummaryFact {
  return {
    runTime: m.runTime,
    ioTime: m.ioTime,
    ioShare: m.runTime > 0 ? Math.min(1, m.ioTime / m.runTime) : null,
    cumulativeIoTime: m.cumulativeIoTime,
    processes: m.processes,
    overlapSeconds: m.overlapSeconds,
    bytes,
    breakdown: m.breakdown,
    notRecorded: m.notRecorded,
    files: topFiles(m, m.fileName ?? fileName),
    ranks: rankTimes(m),
    source: m.source,
    layers,
    ...(m.apart.cumulativeSeconds > 0
      ? {
          notStorage: {
            seconds: m.apart.seconds,
            cumulativeSeconds: m.apart.cumulativeSeconds,
            count: m.apart.files.length,
            files: m.apart.files.slice(0, 10).map((f) => ({ name: (m.fileName ?? fileName)(f.key), reason: f.reason, seconds: f.seconds, cumulativeSeconds: f.cumulativeSeconds })),
          },
        }
      : {}),
  };
}

/** The io section of an input without I/O time (no time model). */
export function emptyIoSummary(runTime: number, processes: number): IoSummaryFact {
  return { runTime, ioTime: 0, ioShare: null, cumulativeIoTime: 0, processes, overlapSeconds: 0, bytes: 0, breakdown: [], notRecorded: [], files: [], ranks: null, source: 'counters', layers: [] };
}

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
