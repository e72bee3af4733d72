import type { DxtTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';

/**
 * Per DXT_POSIX record (one file × one rank), from its traced segments in time order: how long the rank was inside
 * read/write calls (`busySeconds`), how long its I/O phase on the file lasted (`spanSeconds`, first start to last
 * end; the difference holds untraced work between calls such as fsync), and how its offsets moved: consecutive
 * (offset = previous end), forward jumps (offset > previous end: strided or random) and backward jumps.
 */
export default defineFact({
  name: 'dxt.posixRanks',
  description: 'DXT_POSIX per file × rank: operations, busy and span seconds, consecutive / forward-gap / backward offsets, and repeated forward gaps (regular strides).',
  compute(src, facts) {
    let t: DxtTable | null = null;
    try {
      t = src.table<DxtTable>('DXT_POSIX');
    } catch {
      return null;
    }
    if (!t || !t.length) return null;
    const n = t.length;
    const off = t.offsetLength.col(0), len = t.offsetLength.col(1);
    const ops = new Float64Array(n), busy = new Float64Array(n), span = new Float64Array(n), lastEnd = new Float64Array(n), medianCall = new Float64Array(n);
    const durations: number[] = [];
    const consecutive = new Float64Array(n), forward = new Float64Array(n), backward = new Float64Array(n), regular = new Float64Array(n);
    // Alignment per file: the Lustre stripe size when the log has it, else Darshan's POSIX_FILE_ALIGNMENT.
    const align = new Map<bigint, number>();
    const px = facts.tryGet('posix.files');
    if (px) for (let i = 0; i < px.ids.length; i++) if (px.alignment[i] > 0) align.set(px.ids[i], px.alignment[i]);
    const ls = facts.tryGet('lustre.stripes');
    if (ls) for (let i = 0; i < ls.ids.length; i++) if (ls.stripeSize[i] > 0) align.set(ls.ids[i], ls.stripeSize[i]);
    const largeOps = new Float64Array(n), misaligned = new Float64Array(n), alignment = new Float64Array(n);
    const order: number[] = [];
    for (let r = 0; r < n; r++) {
      const s0 = t.segStart[r];
      const m = t.writeCount[r] + t.readCount[r];
      ops[r] = m;
      if (!m) continue;
      const a = align.get(t.ids[r]) ?? 0;
      alignment[r] = a;
      if (a > 0) for (let k = s0; k < s0 + m; k++) if (len[k] >= a) {
        largeOps[r]++;
        if (off[k] % a !== 0) misaligned[r]++;
      }
      durations.length = 0;
      for (let k = s0; k < s0 + m; k++) durations.push(t.end[k] - t.start[k]);
      durations.sort((a, b) => a - b);
      medianCall[r] = m % 2 ? durations[m >> 1] : (durations[(m >> 1) - 1] + durations[m >> 1]) / 2;
      order.length = 0;
      for (let k = s0; k < s0 + m; k++) order.push(k);
      order.sort((a, b) => t!.start[a] - t!.start[b]);
      let first = Infinity, last = -Infinity, prevEnd = NaN, prevGap = NaN;
      for (const k of order) {
        busy[r] += t.end[k] - t.start[k];
        first = Math.min(first, t.start[k]);
        last = Math.max(last, t.end[k]);
        if (!Number.isNaN(prevEnd)) {
          const gap = off[k] - prevEnd;
          if (gap === 0) consecutive[r]++;
          else if (gap > 0) {
            forward[r]++;
            if (gap === prevGap) regular[r]++;
          } else backward[r]++;
          prevGap = gap;
        }
        prevEnd = off[k] + len[k];
      }
      span[r] = last - first;
      lastEnd[r] = last;
    }
    return { ids: t.ids, ranks: t.ranks.col(0), ops, busySeconds: busy, spanSeconds: span, consecutive, forwardGaps: forward, regularGaps: regular, backwardGaps: backward, largeOps, misalignedLargeOps: misaligned, alignment, lastEndSeconds: lastEnd, medianCallSeconds: medianCall };
  },
});
