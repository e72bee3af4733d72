import { DXT_SEGMENT_CAP, type DxtSegments } from '../contract/charts.js';
import type { DxtTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';

/** One module's segments as the fact builds them (arrays filled in place). */
type DxtSegmentsOut = { -readonly [K in keyof Omit<DxtSegments, 'shown'>]: DxtSegments[K] extends readonly (infer T)[] ? T[] : DxtSegments[K] };

/**
 * Which segments of `n` to keep for a plot of at most `cap`: all of them when they fit; else the cap/2 longest
 * calls (the ones that cost time) and, of the rest, cap/2 spread evenly over the start-time order (the pattern).
 * Returns segment indices in start-time order.
 */
export function pickSegments(start: Float64Array, end: Float64Array, cap: number): Int32Array {
  const n = start.length;
  const byStart = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => start[a] - start[b] || a - b);
  if (n <= cap) return byStart;
  const longest = Math.floor(cap / 2);
  const byLength = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => end[b] - start[b] - (end[a] - start[a]) || a - b);
  const keep = new Uint8Array(n);
  for (let k = 0; k < longest; k++) keep[byLength[k]] = 1;
  const rest = cap - longest;
  const others = n - longest;
  // Evenly spaced ranks among the segments not yet kept, in start order.
  let seen = 0;
  let next = 0;
  let taken = 0;
  for (let k = 0; k < n && taken < rest; k++) {
    const i = byStart[k];
    if (keep[i]) continue;
    if (seen === Math.floor((next * others) / rest)) {
      keep[i] = 2;
      taken++;
      next++;
    }
    seen++;
  }
  return byStart.filter((i) => keep[i] > 0);
}

export default defineFact({
  name: 'dxt.segments',
  description: `DXT_POSIX and DXT_MPIIO segments for timelines: rank, file, read or write, start and end (seconds since the job start), offset and length; at most ${DXT_SEGMENT_CAP} per module (the longest half and an even spread of the rest).`,
  compute(src) {
    const out: DxtSegmentsOut[] = [];
    for (const module of ['DXT_POSIX', 'DXT_MPIIO']) {
      let t: DxtTable | null = null;
      try {
        t = src.log.has(module) ? src.table<DxtTable>(module) : null;
      } catch {
        t = null;
      }
      if (!t || !t.segments) continue;
      const n = t.segments;
      const rec = new Int32Array(n);
      const isWrite = new Uint8Array(n);
      const rankSet = new Set<number>();
      const ranks = t.ranks.col(0);
      for (let r = 0; r < t.length; r++) {
        const s0 = t.segStart[r];
        const m = t.writeCount[r] + t.readCount[r];
        if (m > 0) rankSet.add(ranks[r]);
        for (let k = 0; k < m; k++) {
          rec[s0 + k] = r;
          isWrite[s0 + k] = k < t.writeCount[r] ? 1 : 0;
        }
      }
      const keep = pickSegments(t.start.subarray(0, n), t.end.subarray(0, n), DXT_SEGMENT_CAP);
      const off = t.offsetLength.col(0), len = t.offsetLength.col(1);
      const fileIndex = new Map<bigint, number>();
      const seg: DxtSegmentsOut = { module, total: n, ranks: rankSet.size, files: [], rank: [], file: [], write: [], start: [], end: [], offset: [], length: [] };
      for (const i of keep) {
        const r = rec[i];
        const id = t.ids[r];
        let f = fileIndex.get(id);
        if (f === undefined) {
          f = seg.files.length;
          fileIndex.set(id, f);
          seg.files.push(src.fileName(id));
        }
        seg.rank.push(ranks[r]);
        seg.file.push(f);
        seg.write.push(isWrite[i]);
        seg.start.push(t.start[i]);
        seg.end.push(t.end[i]);
        seg.offset.push(off[i]);
        seg.length.push(len[i]);
      }
      out.push(seg);
    }
    return out.length ? { modules: out } : null;
  },
});
