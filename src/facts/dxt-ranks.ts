import type { DxtTable } from '../formats/darshan/index.js';
import { defineFact, type FactReader } from './define-fact.js';
import type { DxtPosixRanksFact } from './types.js';
import { medianInPlace } from '../util/stats.js';

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
    return dxtPosixRanksOf(t, dxtAlignments(facts));
  },
});

/** The alignment per file DXT offsets are judged against: the Lustre stripe size when the log has it, else Darshan's POSIX_FILE_ALIGNMENT. */
export function dxtAlignments(facts: FactReader): Map<bigint, number> {
  const align = new Map<bigint, number>();
  const px = facts.tryGet('posix.files');
  if (px) for (let i = 0; i < px.ids.length; i++) if (px.alignment[i] > 0) align.set(px.ids[i], px.alignment[i]);
  const ls = facts.tryGet('lustre.stripes');
  if (ls) for (let i = 0; i < ls.ids.length; i++) if (ls.stripeSize[i] > 0) align.set(ls.ids[i], ls.stripeSize[i]);
  return align;
}

/**
 * `dxt.posixRanks` of the records of one DXT_POSIX table: each record summarised from its own segments, so a region
 * decoded in batches (`dxtTables`) gives, batch after batch, the rows of the whole table (`concatDxtPosixRanks`).
 */
export function dxtPosixRanksOf(t: DxtTable, align: ReadonlyMap<bigint, number>): DxtPosixRanksFact {
  const n = t.length;
  const off = t.offsetLength.col(0), len = t.offsetLength.col(1);
  const ops = new Float64Array(n), busy = new Float64Array(n), span = new Float64Array(n), lastEnd = new Float64Array(n), medianCall = new Float64Array(n);
  const consecutive = new Float64Array(n), forward = new Float64Array(n), backward = new Float64Array(n), regular = new Float64Array(n);
  const largeOps = new Float64Array(n), misaligned = new Float64Array(n), alignment = new Float64Array(n);
  // Scratch space for one record's durations and (when its segments are out of time order) its order.
  let maxM = 0;
  for (let r = 0; r < n; r++) maxM = Math.max(maxM, t.writeCount[r] + t.readCount[r]);
  const dur = new Float64Array(maxM);
  let order = new Int32Array(0);
  const start = t.start, end = t.end;
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
    for (let k = 0; k < m; k++) dur[k] = end[s0 + k] - start[s0 + k];
    medianCall[r] = medianInPlace(dur, m);
    // Segments in start order (as Darshan records them, unless threads interleave): no sort needed.
    let sorted = true;
    for (let k = s0 + 1; k < s0 + m && sorted; k++) if (start[k] < start[k - 1]) sorted = false;
    if (!sorted) {
      if (order.length < m) order = new Int32Array(maxM);
      for (let k = 0; k < m; k++) order[k] = s0 + k;
      // A stable order by start (ties keep the recorded order), as the comparison sort gave.
      const idx = Array.from(order.subarray(0, m));
      idx.sort((x, y) => start[x] - start[y] || x - y);
      order.set(idx);
    }
    let first = Infinity, last = -Infinity, prevEnd = NaN, prevGap = NaN;
    for (let j = 0; j < m; j++) {
      const k = sorted ? s0 + j : order[j];
      busy[r] += end[k] - start[k];
      if (start[k] < first) first = start[k];
      if (end[k] > last) last = end[k];
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
}

/** The rows of several `dxtPosixRanksOf` results, in order. */
export function concatDxtPosixRanks(parts: readonly DxtPosixRanksFact[]): DxtPosixRanksFact | null {
  if (!parts.length) return null;
  if (parts.length === 1) return parts[0];
  const n = parts.reduce((a, p) => a + p.ids.length, 0);
  const ids = new BigUint64Array(n);
  let o = 0;
  for (const p of parts) {
    ids.set(p.ids, o);
    o += p.ids.length;
  }
  const cat = (k: Exclude<keyof DxtPosixRanksFact, 'ids'>): Float64Array => {
    const out = new Float64Array(n);
    let at = 0;
    for (const p of parts) {
      out.set(p[k], at);
      at += p[k].length;
    }
    return out;
  };
  return {
    ids,
    ranks: cat('ranks'), ops: cat('ops'), busySeconds: cat('busySeconds'), spanSeconds: cat('spanSeconds'), consecutive: cat('consecutive'),
    forwardGaps: cat('forwardGaps'), regularGaps: cat('regularGaps'), backwardGaps: cat('backwardGaps'), largeOps: cat('largeOps'),
    misalignedLargeOps: cat('misalignedLargeOps'), alignment: cat('alignment'), lastEndSeconds: cat('lastEndSeconds'), medianCallSeconds: cat('medianCallSeconds'),
  };
}
