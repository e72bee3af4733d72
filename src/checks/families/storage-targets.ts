import type { StorageTargetsFact } from '../../facts/types.js';
import type { TimeModel } from '../../facts/time-model.js';
import { quantileSorted } from '../../util/stats.js';

/** Median of a list (0 when empty). */
function medianOf(xs: readonly number[]): number {
  return xs.length ? quantileSorted([...xs].sort((a, b) => a - b), 0.5) : 0;
}

/** One storage target judged against its peers. */
export interface TargetJudgement {
  /** Row in `fact.targets`. */
  readonly target: number;
  /** The target's typical bandwidth (its files' median; a file target's own), bytes/s. */
  readonly bandwidth: number;
  /** Why a target this slow is not called slow (null when it is): its files move less per request or per file. */
  readonly excused: 'smaller-requests' | 'smaller-files' | null;
}

/** What the rule sees: the compared targets, their median, and the slow ones. */
export interface SlowTargets {
  /** Targets compared (enough files with data on them). */
  readonly compared: number;
  /** The median compared target's bandwidth, bytes/s. */
  readonly median: number;
  /** Robust spread of log bandwidth over the compared targets (MAD × 1.4826). */
  readonly spread: number;
  /** Slow targets, slowest first (excused ones included, marked). */
  readonly slow: readonly TargetJudgement[];
}

/**
 * The slow-target rule (docs/diagnosis.md, D21): targets with at least `minFiles` files are compared by their median
 * file bandwidth (bytes / data seconds: a file with more bytes is not slower for it); a target is slow when it runs
 * `ratio` times below the median target and `spread` robust deviations (log scale) below it, with at least `minFiles`
 * peers. A slow target whose files issue requests less than half the peers' typical size, or move less than a quarter
 * of the peers' typical bytes, is excused: its files are slow for what they do, not where they are.
 */
export function judgeTargets(st: StorageTargetsFact, opts: { ratio: number; spread: number; minFiles: number }): SlowTargets {
  const t = st.targets, f = st.files;
  const minFiles = st.kind === 'file' ? 1 : opts.minFiles;
  // Per target: its files' median request size and bytes, to excuse targets whose files do something else.
  const reqSize: number[][] = Array.from({ length: t.ids.length }, () => []);
  const fileBytes: number[][] = Array.from({ length: t.ids.length }, () => []);
  for (let i = 0; i < f.ids.length; i++) {
    for (let j = f.targetStart[i]; j < f.targetStart[i] + f.targetCount[i]; j++) {
      if (f.requests[i] > 0) reqSize[f.targetOf[j]].push(f.bytes[i] / f.requests[i]);
      fileBytes[f.targetOf[j]].push(f.bytes[i]);
    }
  }
  const compared: number[] = [];
  for (let k = 0; k < t.ids.length; k++) if (t.files[k] >= minFiles && t.medianFileBandwidth[k] > 0) compared.push(k);
  const bw = (k: number) => t.medianFileBandwidth[k];
  if (compared.length < opts.minFiles + 1) return { compared: compared.length, median: 0, spread: 0, slow: [] };
  const logs = compared.map((k) => Math.log(bw(k)));
  const mid = medianOf(logs);
  const spread = 1.4826 * medianOf(logs.map((x) => Math.abs(x - mid)));
  const median = Math.exp(mid);
  const typicalReq = medianOf(compared.map((k) => medianOf(reqSize[k])));
  const typicalBytes = medianOf(compared.map((k) => medianOf(fileBytes[k])));
  const slow: TargetJudgement[] = [];
  for (const k of compared) {
    const d = mid - Math.log(bw(k));
    if (!(d > Math.log(opts.ratio) && d > opts.spread * spread)) continue;
    const excused = medianOf(reqSize[k]) < 0.5 * typicalReq ? 'smaller-requests' : medianOf(fileBytes[k]) < 0.25 * typicalBytes ? 'smaller-files' : null;
    slow.push({ target: k, bandwidth: bw(k), excused });
  }
  slow.sort((a, b) => a.bandwidth - b.bandwidth || a.target - b.target);
  return { compared: compared.length, median, spread, slow };
}

/** What the job would have waited had some targets run like the others. */
export interface TargetSavings {
  /** Seconds of the slowest rank's I/O time saved (the job's wait), with the range the reference bandwidths allow. */
  readonly seconds: number;
  readonly low: number;
  readonly high: number;
  /** The reference: the median bandwidth of the files' pieces on no slow target, bytes/s. */
  readonly reference: number;
  /** Files on the slow targets. */
  readonly files: number;
}

/**
 * Seconds the slowest rank would not have waited had the `slow` targets run like the others. The reference is the
 * median bandwidth of the files' pieces on no slow target (a file on one OST is one piece; a striped file traced by
 * DXT has one per OST): the job's own evidence. Each piece on a slow target would take its bytes at the reference
 * bandwidth where that is shorter; a file saves that share of its slowest rank's time, each rank's time (the time
 * model's per-rank seconds) loses what its files save, shared files lose it from their slowest rank, and the job's
 * I/O time becomes the new slowest rank's. Low and high take the reference at the pieces' lower and upper quartile.
 */
export function targetSavings(st: StorageTargetsFact, model: TimeModel, slow: ReadonlySet<number>): TargetSavings {
  const f = st.files;
  const onSlow = new Uint8Array(f.ids.length);
  const clean: number[] = [];
  for (let i = 0; i < f.ids.length; i++)
    for (let j = f.targetStart[i]; j < f.targetStart[i] + f.targetCount[i]; j++) {
      if (slow.has(f.targetOf[j])) onSlow[i] = 1;
      else if (f.targetBandwidth[j] > 0) clean.push(f.targetBandwidth[j]);
    }
  clean.sort((a, b) => a - b);
  let files = 0;
  for (let i = 0; i < f.ids.length; i++) files += onSlow[i];
  if (!clean.length || !files) return { seconds: 0, low: 0, high: 0, reference: 0, files };
  const saved = (ref: number): number => {
    const perRank = new Map<number, number>();
    let shared = 0;
    for (let i = 0; i < f.ids.length; i++) {
      if (!onSlow[i]) continue;
      // The share of the file's time its pieces on slow targets would not take at the reference bandwidth.
      let fraction = 0;
      for (let j = f.targetStart[i]; j < f.targetStart[i] + f.targetCount[i]; j++) {
        if (!slow.has(f.targetOf[j])) continue;
        const took = f.seconds[i] * f.targetTimeShare[j];
        fraction += Math.max(0, took - (f.bytes[i] * f.targetShare[j]) / ref) / f.seconds[i];
      }
      const cut = f.slowest[i] * Math.min(1, fraction);
      if (!(cut > 0)) continue;
      if (f.rank[i] >= 0) perRank.set(f.rank[i], (perRank.get(f.rank[i]) ?? 0) + cut);
      else shared += cut;
    }
    const rs = model.rankSeconds;
    let before = 0, after = 0;
    for (let r = 0; r < rs.length; r++) {
      before = Math.max(before, rs[r]);
      after = Math.max(after, rs[r] - (perRank.get(r) ?? 0));
    }
    // Ranks beyond the dense per-rank array (none in practice): their files' savings count as they are.
    for (const [r, cut] of perRank) if (r >= rs.length) before = Math.max(before, cut);
    return Math.max(0, Math.min(model.ioTime, before - after + shared));
  };
  const reference = quantileSorted(clean, 0.5);
  const mid = saved(reference);
  const a = saved(quantileSorted(clean, 0.25)), b = saved(quantileSorted(clean, 0.75));
  return { seconds: mid, low: Math.min(a, mid), high: Math.max(b, mid), reference, files };
}
