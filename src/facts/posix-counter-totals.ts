import type { FixedTable } from '../formats/darshan/index.js';
import { defineFact } from './define-fact.js';
import type { PosixCounterTotalsFact } from './types.js';

/** POSIX counters merged into job totals (every counter that AIIO or Gauge reads). */
const SUM_COUNTERS = [
  'POSIX_OPENS', 'POSIX_FILENOS', 'POSIX_DUPS', 'POSIX_READS', 'POSIX_WRITES', 'POSIX_SEEKS', 'POSIX_STATS',
  'POSIX_MMAPS', 'POSIX_FSYNCS', 'POSIX_FDSYNCS', 'POSIX_RENAME_SOURCES', 'POSIX_RENAME_TARGETS', 'POSIX_RENAMED_FROM',
  'POSIX_BYTES_READ', 'POSIX_BYTES_WRITTEN', 'POSIX_CONSEC_READS', 'POSIX_CONSEC_WRITES', 'POSIX_SEQ_READS',
  'POSIX_SEQ_WRITES', 'POSIX_RW_SWITCHES', 'POSIX_MEM_NOT_ALIGNED', 'POSIX_FILE_NOT_ALIGNED',
  'POSIX_SIZE_READ_0_100', 'POSIX_SIZE_READ_100_1K', 'POSIX_SIZE_READ_1K_10K', 'POSIX_SIZE_READ_10K_100K',
  'POSIX_SIZE_READ_100K_1M', 'POSIX_SIZE_READ_1M_4M', 'POSIX_SIZE_READ_4M_10M', 'POSIX_SIZE_READ_10M_100M',
  'POSIX_SIZE_READ_100M_1G', 'POSIX_SIZE_READ_1G_PLUS',
  'POSIX_SIZE_WRITE_0_100', 'POSIX_SIZE_WRITE_100_1K', 'POSIX_SIZE_WRITE_1K_10K', 'POSIX_SIZE_WRITE_10K_100K',
  'POSIX_SIZE_WRITE_100K_1M', 'POSIX_SIZE_WRITE_1M_4M', 'POSIX_SIZE_WRITE_4M_10M', 'POSIX_SIZE_WRITE_10M_100M',
  'POSIX_SIZE_WRITE_100M_1G', 'POSIX_SIZE_WRITE_1G_PLUS',
] as const;
const SUM_FLOATS = ['POSIX_F_READ_TIME', 'POSIX_F_WRITE_TIME', 'POSIX_F_META_TIME', 'POSIX_F_VARIANCE_RANK_BYTES'] as const;
const MAX_COUNTERS = ['POSIX_MEM_ALIGNMENT', 'POSIX_FILE_ALIGNMENT'] as const;

function topFour(t: FixedTable, kind: 'STRIDE' | 'ACCESS'): { value: number; count: number }[] {
  const counts = new Map<number, number>();
  for (let k = 1; k <= 4; k++) {
    const vcol = t.intCol(`POSIX_${kind}${k}_${kind}`) >= 0 ? t.int(`POSIX_${kind}${k}_${kind}`) : null;
    const ccol = t.intCol(`POSIX_${kind}${k}_COUNT`) >= 0 ? t.int(`POSIX_${kind}${k}_COUNT`) : null;
    if (!vcol || !ccol) continue;
    for (let r = 0; r < t.length; r++) {
      const c = ccol[r];
      if (c > 0) counts.set(vcol[r], (counts.get(vcol[r]) ?? 0) + c);
    }
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || b.value - a.value).slice(0, 4);
}

/** Job totals of the POSIX module (empty totals when the log has no POSIX records). */
function posixCounterTotals(t: FixedTable | null): PosixCounterTotalsFact {
  const v = new Map<string, number>();
  for (const c of SUM_COUNTERS) v.set(c, 0);
  for (const c of SUM_FLOATS) v.set(c, 0);
  for (const c of MAX_COUNTERS) v.set(c, 0);
  for (const kind of ['STRIDE', 'ACCESS'] as const)
    for (let k = 1; k <= 4; k++) {
      v.set(`POSIX_${kind}${k}_${kind}`, 0);
      v.set(`POSIX_${kind}${k}_COUNT`, 0);
    }
  const files = { total: 0, readOnly: 0, writeOnly: 0, readWrite: 0, shared: 0, unique: 0 };
  if (!t || t.length === 0) return { counters: Object.fromEntries(v), files };
  const n = t.length;
  // Sums skip -1 ("not measured") and other negative values.
  const positiveSum = (col: Float64Array) => col.reduce((s, x) => (x > 0 ? s + x : s), 0);
  for (const c of SUM_COUNTERS) if (t.intCol(c) >= 0) v.set(c, positiveSum(t.int(c)));
  for (const c of SUM_FLOATS) if (t.floatCol(c) >= 0) v.set(c, positiveSum(t.float(c)));
  for (const c of MAX_COUNTERS) {
    if (t.intCol(c) < 0) continue;
    const col = t.int(c);
    let m = 0;
    for (let r = 0; r < n; r++) if (col[r] > m) m = col[r];
    v.set(c, m);
  }
  for (const kind of ['STRIDE', 'ACCESS'] as const) {
    const top = topFour(t, kind);
    top.forEach((e, i) => {
      v.set(`POSIX_${kind}${i + 1}_${kind}`, e.value);
      v.set(`POSIX_${kind}${i + 1}_COUNT`, e.count);
    });
  }
  // Files: one entry per record id; reads/writes summed over its ranks; shared = a rank -1 record or several ranks.
  const reads = t.int('POSIX_READS');
  const writes = t.int('POSIX_WRITES');
  const ranks = t.ranks.col(0);
  const index = new Map<bigint, number>();
  const fr: number[] = [];
  const fw: number[] = [];
  const frank: number[] = [];
  const fshared: boolean[] = [];
  for (let r = 0; r < n; r++) {
    const id = t.ids[r];
    let i = index.get(id);
    if (i === undefined) {
      i = fr.length;
      index.set(id, i);
      fr.push(0);
      fw.push(0);
      frank.push(ranks[r]);
      fshared.push(ranks[r] < 0);
    } else if (frank[i] !== ranks[r]) fshared[i] = true;
    if (reads[r] > 0) fr[i] += reads[r];
    if (writes[r] > 0) fw[i] += writes[r];
  }
  files.total = fr.length;
  for (let i = 0; i < fr.length; i++) {
    if (fr[i] > 0 && fw[i] === 0) files.readOnly++;
    else if (fw[i] > 0 && fr[i] === 0) files.writeOnly++;
    else if (fw[i] > 0 && fr[i] > 0) files.readWrite++;
    if (fshared[i]) files.shared++;
    else files.unique++;
  }
  return { counters: Object.fromEntries(v), files };
}

export default defineFact({
  name: 'posix.counterTotals',
  description:
    "Job totals of POSIX counters as the learned feature sets read them (AIIO, Gauge): sums with Darshan's −1 as 0, alignments as maxima, the job's four most common access sizes and strides, and the files by category (read-only, write-only, read-write, shared, unique).",
  compute(src) {
    return posixCounterTotals(src.log.has('POSIX') ? src.fixed('POSIX') : null);
  },
});
