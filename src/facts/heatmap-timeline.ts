import { defineFact } from './define-fact.js';

/**
 * `heatmap.timeline`: Darshan's HEATMAP module (3.4+) keeps, per rank and instrumented layer, the bytes read and
 * written in fixed time bins. Summed over ranks it gives the job's I/O timeline: phases, bursts, idle stretches.
 * The sums are `heatmap.series`' reads plus writes.
 */
export default defineFact({
  name: 'heatmap.timeline',
  description: 'HEATMAP bytes per time bin summed over ranks, per layer (POSIX, MPIIO, STDIO), and the number of ranks active in each bin.',
  compute(_src, facts) {
    const s = facts.tryGet('heatmap.series');
    if (!s) return null;
    return { binSeconds: s.binSeconds, layers: s.layers.map((l) => ({ layer: l.layer, bytes: l.read.map((v, b) => v + l.write[b]), activeRanks: l.activeRanks })) };
  },
});
