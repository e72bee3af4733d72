import type { DxtTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import type { FactSource } from './source.js';
import type { DxtWrites, DxtWritesFact } from './types.js';

/** The DXT modules whose write calls can split a sync out of write time, with the counter module and its sync counters. */
const SYNCED = [
  { dxt: 'DXT_POSIX', module: 'POSIX', syncs: ['POSIX_FSYNCS', 'POSIX_FDSYNCS'] },
  { dxt: 'DXT_MPIIO', module: 'MPI-IO', syncs: ['MPIIO_SYNCS'] },
] as const;

/**
 * The DXT modules of the log whose layer synced (Darshan adds sync time to that layer's write time, and the traced
 * write calls' own durations take it out again): only those are summed, so a log without syncs never decodes DXT.
 */
export function syncedDxtModules(src: FactSource): ('DXT_POSIX' | 'DXT_MPIIO')[] {
  const out: ('DXT_POSIX' | 'DXT_MPIIO')[] = [];
  for (const s of SYNCED) {
    if (!src.log.has(s.dxt) || !src.log.has(s.module)) continue;
    const t = src.fixed(s.module);
    if (!t) continue;
    let synced = false;
    for (const name of s.syncs) {
      if (t.intCol(name) < 0) continue;
      const c = t.int(name);
      for (let r = 0; r < t.length && !synced; r++) if (c[r] > 0) synced = true;
    }
    if (synced) out.push(s.dxt);
  }
  return out;
}

/** An empty summary, for `addDxtWrites`. */
export function emptyDxtWrites(): DxtWrites {
  return { byRecord: new Map(), byFile: new Map() };
}

/** Adds the write calls of a DXT table's records (the whole region, or one batch of it) to `acc`. */
export function addDxtWrites(acc: DxtWrites, t: DxtTable): void {
  const rank = t.ranks.col(0);
  for (let r = 0; r < t.length; r++) {
    const s0 = t.segStart[r];
    const w = t.writeCount[r];
    let sec = 0;
    for (let k = s0; k < s0 + w; k++) sec += Math.max(0, t.end[k] - t.start[k]);
    const key = `${t.ids[r]}:${rank[r]}`;
    const a = acc.byRecord.get(key) ?? { writes: 0, seconds: 0 };
    a.writes += w;
    a.seconds += sec;
    acc.byRecord.set(key, a);
    const f = acc.byFile.get(t.ids[r]) ?? { writes: 0, seconds: 0 };
    f.writes += w;
    f.seconds += sec;
    acc.byFile.set(t.ids[r], f);
  }
}

/**
 * `dxt.writes`: per DXT module of a layer that synced, the traced write calls per record (`id:rank`) and per file:
 * their count and summed duration. The time model uses them to split sync time out of Darshan's write time.
 */
export default defineFact({
  name: 'dxt.writes',
  description: 'DXT write calls per record and per file (count, summed seconds), for the DXT modules whose layer synced.',
  compute(src) {
    const out: { -readonly [K in keyof DxtWritesFact]: DxtWritesFact[K] } = {};
    for (const m of syncedDxtModules(src)) {
      let t: DxtTable | null = null;
      try {
        t = src.table<DxtTable>(m);
      } catch {
        continue;
      }
      if (!t || !t.length) continue;
      const acc = emptyDxtWrites();
      addDxtWrites(acc, t);
      out[m] = acc;
    }
    return out;
  },
});
