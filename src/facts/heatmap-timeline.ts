import type { HeatmapTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';

/**
 * `heatmap.timeline`: Darshan's HEATMAP module (3.4+) keeps, per rank and instrumented layer, the bytes read and
 * written in fixed time bins. Summed over ranks it gives the job's I/O timeline: phases, bursts, idle stretches.
 */
export default defineFact({
  name: 'heatmap.timeline',
  description: 'HEATMAP bytes per time bin summed over ranks, per layer (POSIX, MPIIO, STDIO), and the number of ranks active in each bin.',
  compute(src) {
    let t: HeatmapTable | null = null;
    try {
      t = src.table<HeatmapTable>('HEATMAP');
    } catch {
      return null;
    }
    if (!t || !t.length) return null;
    const width = t.binWidthSeconds[0];
    if (!(width > 0)) return null;
    const byLayer = new Map<string, { bytes: number[]; active: number[] }>();
    for (let r = 0; r < t.length; r++) {
      if (t.binWidthSeconds[r] !== width) continue;
      const name = src.log.names.get(t.ids[r]) ?? '';
      const layer = name.replace(/^heatmap:/, '') || 'unknown';
      const e = byLayer.get(layer) ?? { bytes: [], active: [] };
      byLayer.set(layer, e);
      for (let b = 0; b < t.nbins[r]; b++) {
        const v = Math.max(0, t.readBins.get(t.binStart[r] + b)) + Math.max(0, t.writeBins.get(t.binStart[r] + b));
        e.bytes[b] = (e.bytes[b] ?? 0) + v;
        e.active[b] = (e.active[b] ?? 0) + (v > 0 ? 1 : 0);
      }
    }
    const layers = [...byLayer].map(([layer, e]) => ({ layer, bytes: Float64Array.from(e.bytes, (v) => v ?? 0), activeRanks: Float64Array.from(e.active, (v) => v ?? 0) }));
    return layers.length ? { binSeconds: width, layers } : null;
  },
});
