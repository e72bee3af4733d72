import type { Finding } from '../contract/index.js';
import type { FactReader } from '../facts/define-fact.js';

const MIB = 1048576;

/**
 * The job row's `storage_targets` (docs/store.md): one object per Lustre OST the job's files live on — the file
 * system's mount, the OST index, files, bytes, data seconds summed over ranks and on the slowest rank, bandwidth, the
 * median file's bandwidth — and whether D21 named it slow, with the seconds the job waited for it (the finding's cost,
 * split over the slow OSTs by their slowest-rank seconds). JSON text, or null when placement is unknown (no LUSTRE
 * module: per-file targets mean nothing across jobs).
 */
export function storageTargetsCell(facts: FactReader, insights: readonly Finding[]): string | null {
  const st = facts.tryGet('storage.targets');
  if (!st || st.kind !== 'ost') return null;
  const t = st.targets;
  const d21 = insights.find((f) => f.code === 'D21' && (f.level === 'HIGH' || f.level === 'WARN'));
  const named = new Set<number>();
  for (const d of d21?.details ?? []) if (typeof d.data.ost === 'number') named.add(d.data.ost);
  let slowTotal = 0;
  for (let k = 0; k < t.ids.length; k++) if (named.has(t.ids[k])) slowTotal += t.slowestSeconds[k];
  const waited = d21?.cost?.seconds ?? 0;
  const rows = [];
  for (let k = 0; k < t.ids.length; k++) {
    const slow = named.has(t.ids[k]);
    rows.push({
      fs: st.mount,
      ost: t.ids[k],
      files: t.files[k],
      bytes: t.bytes[k],
      seconds: t.seconds[k],
      slowest_s: t.slowestSeconds[k],
      mibs: t.bandwidth[k] / MIB,
      median_file_mibs: t.medianFileBandwidth[k] / MIB,
      slow,
      waited_s: slow && slowTotal > 0 ? (waited * t.slowestSeconds[k]) / slowTotal : 0,
    });
  }
  return JSON.stringify(rows);
}
