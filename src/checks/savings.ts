import type { Cost, Savings } from '../contract/index.js';
import type { PosixFilesFact } from '../facts/types.js';

/**
 * What fixing a problem would save (issue 51): the time of the problem's calls minus what the same work would take
 * done well, in the semantics of the finding's cost. One module for every problem family, so that "done well" means
 * the same thing whichever check found the problem. A check states the work its problem's calls did (`SavingsInput`);
 * `completeSavings` turns it into seconds with the job's own evidence where the job has it (basis `job`) and a stated
 * reference where it does not (basis `reference`), or an upper bound when the counters cannot separate the problem's
 * share (basis `bound`). The overlap rule (findings that share calls share their savings) is `shareSavings`, applied
 * once where the findings are assembled (run-checks.ts).
 */
export type SavingsInput =
  /**
   * Data calls that moved `bytes` in `seconds` badly (small, random, strided, unaligned, independent requests): done
   * well, the same bytes move at the bandwidth of the job's own large requests of that direction (files whose
   * requests are at least 90 % large), else at the stated reference bandwidth.
   */
  | { readonly kind: 'data'; readonly seconds: number; readonly readBytes: number; readonly writeBytes: number }
  /**
   * Calls repeated more often than the work needs (a sync per write, an open per access): done well, `needed` calls
   * of the job's own mean duration (`seconds / calls`), plus the data they must still carry (`bytes` written at the
   * job's or the reference bandwidth: a final sync still flushes every dirty byte).
   */
  | { readonly kind: 'calls'; readonly seconds: number; readonly calls: number; readonly needed: number; readonly what: string; readonly bytes?: number }
  /**
   * Time that done well would not be spent at all, measured on the job (basis `job`): the slowest rank's (or
   * process's) time beyond the median one's (done well, the slowest does what the median does), or calls the work
   * does not need (bytes read again, the reads of a read-modify-write). The range allows for part of it moving
   * elsewhere (the imbalanced work landing on the others): at least half of it is saved.
   */
  | { readonly kind: 'excess'; readonly seconds: number; readonly what: string }
  /**
   * One rank doing what `ranks` ranks could share: done well, each does 1/ranks of it at once, if the file system
   * serves them in parallel (it may not: one rank may already saturate it). An upper bound: S × (1 − 1/ranks).
   */
  | { readonly kind: 'spread'; readonly seconds: number; readonly ranks: number }
  /** Calls that include the problem's, which the counters cannot separate: between none of them and all. */
  | { readonly kind: 'bound'; readonly seconds: number; readonly what: string }
  /**
   * Savings a check computed from its own evidence, whole (a slow storage target: what the slowest rank would not have
   * waited had the target run like the median one): taken as they are, capped by the cost like every other.
   */
  | { readonly kind: 'known'; readonly seconds: number; readonly low: number; readonly high: number; readonly basis: Savings['basis']; readonly reference: string };

/** Reference bandwidth of one process streaming large requests, bytes/s, when the job shows none (docs/report.md). */
export const REFERENCE_BANDWIDTH = { central: 500 * 2 ** 20, low: 100 * 2 ** 20 } as const;
/** Requests at or above this size are large (Darshan's 1M bins). */
const LARGE = 2 ** 20;
/** A file's requests of one direction count as large when at most this share of them is small. */
const LARGE_FILE_SMALL_SHARE = 0.1;
/** The job's large requests are evidence of its bandwidth when they move at least this much (four large requests). */
const MIN_EVIDENCE_BYTES = 4 * LARGE;

/** The bandwidth the job's large requests reached, per direction (bytes per second of calls' time), or null. */
export interface JobBandwidth {
  readonly read: number | null;
  readonly write: number | null;
}

/**
 * The job's own large-request bandwidth per direction, from its POSIX files whose requests are (nearly all) large. A
 * file synced more than once (a sync per write, or per phase) is no evidence of write bandwidth: its write time holds
 * the syncs' (the counters cannot separate them).
 */
export function jobBandwidth(p: PosixFilesFact | null): JobBandwidth {
  if (!p) return { read: null, write: null };
  const of = (n: Float64Array, small: Float64Array, bytes: Float64Array, time: Float64Array, write: boolean): number | null => {
    let b = 0, t = 0;
    for (let i = 0; i < p.ids.length; i++) {
      if (!(n[i] > 0) || !(small[i] / n[i] <= LARGE_FILE_SMALL_SHARE) || !(bytes[i] > 0) || !(time[i] > 0)) continue;
      if (write && p.syncs[i] > 1) continue;
      b += bytes[i];
      t += time[i];
    }
    return b >= MIN_EVIDENCE_BYTES && t > 0 ? b / t : null;
  };
  return { read: of(p.reads, p.smallReads, p.bytesRead, p.readTime, false), write: of(p.writes, p.smallWrites, p.bytesWritten, p.writeTime, true) };
}

const MiB = (bw: number) => `${(bw / 2 ** 20).toFixed(bw >= 10 * 2 ** 20 ? 0 : 1)} MiB/s`;
const fin = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);

/** Savings of one finding from what its calls did, capped by its cost (fixing a problem never saves more than it spends). */
export function completeSavings(input: SavingsInput, cost: Cost, bw: JobBandwidth): Savings {
  const spend = cost.seconds;
  const S = Math.min(fin(input.seconds), spend);
  const out = (seconds: number, low: number, high: number, basis: Savings['basis'], reference: string): Savings => {
    const hi = Math.min(S, fin(high));
    const lo = Math.min(hi, fin(low));
    return { seconds: Math.min(hi, Math.max(lo, fin(seconds))), low: lo, high: hi, semantics: cost.semantics, basis, reference };
  };
  switch (input.kind) {
    case 'data': {
      // Each direction at the job's own large-request bandwidth where it has one, else at the reference.
      let well = 0, wellLow = 0, wellHigh = 0, refs = 0;
      const parts: string[] = [];
      for (const dir of ['read', 'write'] as const) {
        const bytes = fin(dir === 'read' ? input.readBytes : input.writeBytes);
        if (!bytes) continue;
        const own = bw[dir];
        if (own) {
          well += bytes / own;
          wellLow += bytes / (2 * own);
          wellHigh += (2 * bytes) / own;
          parts.push(`the same bytes at the job's large ${dir}s' ${MiB(own)}`);
        } else {
          refs++;
          well += bytes / REFERENCE_BANDWIDTH.central;
          wellHigh += bytes / REFERENCE_BANDWIDTH.low;
          parts.push(`the same bytes in large ${dir}s at ${MiB(REFERENCE_BANDWIDTH.central)} a process (${MiB(REFERENCE_BANDWIDTH.low)} or faster)`);
        }
      }
      return out(S - well, S - wellHigh, S - wellLow, refs ? 'reference' : 'job', parts.length ? parts.join('; ') : 'no bytes to move');
    }
    case 'calls': {
      const calls = fin(input.calls), needed = Math.min(calls, fin(input.needed));
      if (!(calls > 0)) return out(0, 0, 0, 'job', input.what);
      const perCall = S / calls;
      const bytes = fin(input.bytes ?? 0);
      const own = bw.write;
      const flush = bytes > 0 ? bytes / (own ?? REFERENCE_BANDWIDTH.central) : 0;
      const flushLow = bytes > 0 ? bytes / (own ? own / 2 : REFERENCE_BANDWIDTH.low) : 0;
      const well = Math.max(needed * perCall, flush);
      const wellHigh = Math.max(2 * needed * perCall, flushLow);
      const text = `${input.what} (${Math.round(needed)} of ${Math.round(calls)} calls at the job's ${(perCall * 1e3).toFixed(perCall < 1e-3 ? 3 : 2)} ms each${bytes > 0 ? `, flushing the same bytes at ${MiB(own ?? REFERENCE_BANDWIDTH.central)}` : ''})`;
      return out(S - well, S - wellHigh, S - needed * perCall, bytes > 0 && !own ? 'reference' : 'job', text);
    }
    case 'excess':
      return out(S, S / 2, S, 'job', input.what);
    case 'spread': {
      const n = Math.max(1, Math.floor(fin(input.ranks)));
      const high = S * (1 - 1 / n);
      return out(high / 2, 0, high, 'bound', `the work shared by ${n} ranks at once, if the file system serves them in parallel (at most ${n - 1}/${n} of it saved)`);
    }
    case 'bound':
      return out(S / 2, 0, S, 'bound', input.what);
    case 'known':
      return out(input.seconds, input.low, input.high, input.basis, input.reference);
  }
}

/** The savings a finding without a stated model gets: an upper bound, its cost (the problem's share is not separated). */
export function defaultSavingsInput(cost: Cost): SavingsInput {
  return { kind: 'bound', seconds: cost.seconds, what: "the problem's share of its calls' time is not separated: none of it to all of it" };
}

/** A finding as the overlap rule sees it. */
export interface Shareable {
  readonly problem?: string;
  readonly savings?: Savings;
}

/**
 * The overlap rule: findings whose problems overlap share their savings, never double count. Findings naming the
 * same problem are the same calls: together they save what the largest of them saves. Different problems of one job
 * may sit in the same calls: fixing one leaves the others a part of the time that remains, so together they save
 * T × (1 − Π(1 − sᵢ/T)) of the I/O time T (per semantics), never more than T; each finding keeps its share of that in
 * proportion to what it alone would save. Returns the scale factor per finding (1 when nothing overlaps).
 */
export function shareSavings(findings: readonly Shareable[], ioTime: { slowest: number; cumulative: number }): number[] {
  const factor = findings.map(() => 1);
  for (const semantics of ['slowest', 'cumulative'] as const) {
    const T = ioTime[semantics];
    const idx = findings.map((f, i) => (f.savings && f.savings.semantics === semantics && f.savings.seconds > 0 ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    // Same problem: the group saves its largest.
    const groups = new Map<string, number[]>();
    for (const i of idx) {
      const key = findings[i].problem ?? `#${i}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    }
    const groupSaving = new Map<string, number>();
    for (const [key, members] of groups) {
      const sum = members.reduce((a, i) => a + findings[i].savings!.seconds, 0);
      const max = Math.max(...members.map((i) => findings[i].savings!.seconds));
      groupSaving.set(key, max);
      for (const i of members) factor[i] = sum > 0 ? max / sum : 1;
    }
    if (!(T > 0)) continue;
    const parts = [...groupSaving.values()];
    const total = parts.reduce((a, s) => a + s, 0);
    const together = T * (1 - parts.reduce((a, s) => a * (1 - Math.min(1, s / T)), 1));
    if (total > together) for (const i of idx) factor[i] *= together / total;
  }
  return factor;
}

/** A finding's savings scaled by the overlap rule. */
export function scaleSavings(s: Savings, k: number): Savings {
  return k === 1 ? s : { ...s, seconds: s.seconds * k, low: s.low * k, high: s.high * k };
}
