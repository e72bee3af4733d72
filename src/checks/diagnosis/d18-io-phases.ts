import { defineCheck } from '../define-check.js';

/**
 * D18: the job's I/O timeline from the HEATMAP module: how many separate I/O phases there are, how much of the run
 * they cover, and how bursty they are (share of the bytes in the busiest tenth of the active bins). An observation
 * (INFO, no problem tag) that puts the other findings in time: a burst of all ranks at once points at checkpoint-style
 * contention, I/O spread over the whole run at a steady trickle points at per-step logging.
 */
export default defineCheck({
  meta: {
    code: 'D18',
    slug: 'io-phases',
    title: 'I/O timeline',
    failureTitle: 'I/O phases and bursts over the run',
    description: 'Darshan 3.4+ records, per rank and layer, the bytes moved in fixed time bins (HEATMAP). Summed over ranks they show when the job does I/O.',
    panel: 'OPERATIONS',
    layer: 'job',
    scope: 'job',
    level: 'INFO',
    problem: 'io-phases',
    requires: ['heatmap.timeline'],
    modes: ['default'],
    options: {},
    messages: {
      phases: '{layer} I/O happens in {phases} phase(s) covering {active:pct} of the run time; {burst:pct} of the bytes move in the busiest 10% of that active time (100% = all in bursts, 10% = evenly spread), with up to {ranks} ranks at once',
    },
    recommendations: {},
    compat: { differences: [{ id: 'new', description: 'Drishti does not read the HEATMAP module.' }] },
  },
  run(ctx) {
    const h = ctx.fact('heatmap.timeline');
    // The layer that moved the most bytes (POSIX for most jobs; STDIO for STDIO-only ones).
    let best = h.layers[0], bestBytes = -1;
    for (const l of h.layers) {
      let s = 0;
      for (const v of l.bytes) s += v;
      if (s > bestBytes) [best, bestBytes] = [l, s];
    }
    if (!(bestBytes > 0) || best.bytes.length < 2) return;
    const bins = best.bytes;
    let active = 0, phases = 0, ranks = 0;
    for (let b = 0; b < bins.length; b++) {
      if (bins[b] > 0) {
        active++;
        if (b === 0 || bins[b - 1] === 0) phases++;
      }
      ranks = Math.max(ranks, best.activeRanks[b]);
    }
    const sorted = [...bins].filter((v) => v > 0).sort((a, b) => b - a);
    const top = Math.max(1, Math.ceil(sorted.length / 10));
    let topBytes = 0;
    for (let k = 0; k < top; k++) topBytes += sorted[k];
    ctx.report({
      messageId: 'phases',
      data: { layer: best.layer, phases, active: active / bins.length, burst: topBytes / bestBytes, ranks },
      evidence: [
        { name: 'binSeconds', value: h.binSeconds, unit: 'seconds', source: 'HEATMAP bin width' },
        { name: 'bins', value: bins.length, unit: 'count', source: 'HEATMAP bins' },
        { name: 'activeBins', value: active, unit: 'count', source: 'HEATMAP bins with bytes' },
        { name: 'phases', value: phases, unit: 'count', source: 'runs of active bins' },
      ],
    });
  },
});
