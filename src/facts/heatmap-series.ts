import { HEATMAP_RANK_ROWS } from '../contract/charts.js';
import type { HeatmapTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';

/**
 * `heatmap.series`: the HEATMAP module (Darshan 3.4+) as PyDarshan plots it — per layer, bytes read and written per
 * time bin summed over ranks, the ranks active in each bin, and a rank × time matrix (ranks summed in groups of
 * equal size beyond HEATMAP_RANK_ROWS rows). Records whose bin width differs from the first are left out.
 * `heatmap.timeline` is its per-bin sum.
 */
export default defineFact({
  name: 'heatmap.series',
  description: 'HEATMAP per layer: bytes read and written per time bin (summed over ranks), active ranks per bin, and the rank × bin matrix of bytes (ranks grouped beyond 64 rows).',
  compute(src, facts) {
    let t: HeatmapTable | null = null;
    try {
      t = src.table<HeatmapTable>('HEATMAP');
    } catch {
      return null;
    }
    if (!t || !t.length) return null;
    const width = t.binWidthSeconds[0];
    if (!(width > 0)) return null;
    const rankCol = t.ranks.col(0);
    let maxRank = 0;
    for (let r = 0; r < t.length; r++) if (rankCol[r] > maxRank) maxRank = rankCol[r];
    const nranks = Math.max(maxRank + 1, facts.tryGet('job')?.processes ?? 1);
    const perRow = Math.max(1, Math.ceil(nranks / HEATMAP_RANK_ROWS));
    const rows = Math.ceil(nranks / perRow);
    const layerOf = (r: number) => (src.log.names.get(t!.ids[r]) ?? '').replace(/^heatmap:/, '') || 'unknown';
    // Each layer's series are as long as its longest record.
    const bins = new Map<string, number>();
    for (let r = 0; r < t.length; r++) if (t.binWidthSeconds[r] === width) bins.set(layerOf(r), Math.max(bins.get(layerOf(r)) ?? 0, t.nbins[r]));
    const byLayer = new Map<string, { read: Float64Array; write: Float64Array; active: Float64Array; matrix: Float64Array[] }>();
    for (let r = 0; r < t.length; r++) {
      if (t.binWidthSeconds[r] !== width) continue;
      const layer = layerOf(r);
      const nbins = bins.get(layer)!;
      let e = byLayer.get(layer);
      if (!e) byLayer.set(layer, (e = { read: new Float64Array(nbins), write: new Float64Array(nbins), active: new Float64Array(nbins), matrix: Array.from({ length: rows }, () => new Float64Array(nbins)) }));
      const row = rankCol[r] >= 0 ? Math.min(rows - 1, Math.floor(rankCol[r] / perRow)) : -1;
      for (let b = 0; b < t.nbins[r]; b++) {
        const rd = Math.max(0, t.readBins.get(t.binStart[r] + b));
        const wr = Math.max(0, t.writeBins.get(t.binStart[r] + b));
        e.read[b] += rd;
        e.write[b] += wr;
        if (rd + wr > 0) e.active[b]++;
        if (row >= 0) e.matrix[row][b] += rd + wr;
      }
    }
    const layers = [...byLayer].map(([layer, e]) => ({ layer, read: e.read, write: e.write, activeRanks: e.active, ranksPerRow: perRow, matrix: e.matrix }));
    return layers.length ? { binSeconds: width, layers } : null;
  },
});
