import type { ChartsSection } from '../contract/index.js';
import type { FactReader } from '../facts/define-fact.js';

/**
 * The report's `charts` section from a log's facts: the numbers behind PyDarshan's summary plots (I/O time per
 * module split into read/write/metadata, operation counts, access sizes, files) and the timelines (HEATMAP, DXT).
 * Pure; every part is empty (or null) when its facts do not exist for the input.
 */
export function buildCharts(facts: FactReader): ChartsSection {
  const totals = facts.tryGet('modules.totals')?.modules ?? [];
  const heat = facts.tryGet('heatmap.series');
  return {
    ioTime: totals
      .filter((m) => m.records > 0 && m.readTime + m.writeTime + m.metaTime >= 0)
      .map((m) => ({ module: m.module, read: m.readTime, write: m.writeTime, metadata: m.metaTime })),
    operations: (facts.tryGet('modules.operations')?.modules ?? []).map((m) => ({ module: m.module, ops: m.ops.map((o) => ({ ...o })) })),
    accessSizes: (facts.tryGet('modules.accessSizes')?.modules ?? []).map((m) => ({ module: m.module, read: [...m.read], write: [...m.write] })),
    files: (facts.tryGet('modules.files')?.modules ?? []).map((m) => ({ ...m, sizes: [...m.sizes] })),
    heatmap: heat
      ? {
          binSeconds: heat.binSeconds,
          layers: heat.layers.map((l) => ({
            layer: l.layer,
            read: [...l.read],
            write: [...l.write],
            activeRanks: [...l.activeRanks],
            ranksPerRow: l.ranksPerRow,
            matrix: l.matrix.map((row) => [...row]),
          })),
        }
      : null,
    dxt: (facts.tryGet('dxt.segments')?.modules ?? []).map((d) => ({
      module: d.module,
      total: d.total,
      shown: d.start.length,
      ranks: d.ranks,
      files: [...d.files],
      rank: [...d.rank],
      file: [...d.file],
      write: [...d.write],
      start: [...d.start],
      end: [...d.end],
      offset: [...d.offset],
      length: [...d.length],
    })),
  };
}
