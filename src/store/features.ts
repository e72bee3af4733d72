import type { FixedTable, LustreTable } from '../formats/darshan/index.js';

/**
 * Per-job feature vectors for the ML work, computed from a log's POSIX records (and Lustre striping). Definitions
 * are in docs/store.md; the two families follow published feature sets:
 *
 * - AIIO (Dong, Bez, Byna, HPDC'23): job totals of POSIX counters (darshan-parser --total style), each
 *   transformed with log10(x + 1), except five rarely-non-zero counters kept raw, as AIIO's feature engineering.
 * - Gauge (del Rosario et al., PDSW'20): counts turned into ratios of the job's total accesses / bytes / files,
 *   and magnitudes as log10(x + 1).
 */

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

/** Job-level POSIX totals: sums (negative as 0), alignments (max), and the job's four most common strides/accesses. */
export interface PosixTotals {
  readonly v: Map<string, number>;
  /** Distinct files (record ids) and their categories. */
  readonly files: { total: number; readOnly: number; writeOnly: number; readWrite: number; shared: number; unique: number };
}

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
export function posixTotals(t: FixedTable | null): PosixTotals {
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
  if (!t || t.length === 0) return { v, files };
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
  return { v, files };
}

/** Mean stripe size and stripe count over the log's Lustre records (first component of each), or 0 when none. */
export function lustreStriping(t: LustreTable | null): { stripeSize: number; stripeWidth: number } {
  if (!t || t.length === 0) return { stripeSize: 0, stripeWidth: 0 };
  const size = t.components.col(0);
  const count = t.components.col(1);
  let ss = 0;
  let sw = 0;
  let n = 0;
  for (let r = 0; r < t.length; r++) {
    const c = t.componentStart[r];
    if (c < 0 || c >= size.length || t.numComponents.col(0)[r] < 1) continue;
    ss += Math.max(0, size[c]);
    sw += Math.max(0, count[c]);
    n++;
  }
  return n === 0 ? { stripeSize: 0, stripeWidth: 0 } : { stripeSize: ss / n, stripeWidth: sw / n };
}

const log1p10 = (x: number): number => Math.log10(Math.max(0, x) + 1);

/** AIIO's features, in AIIO's order: [column suffix, source, transform]. */
export const AIIO_FEATURES: readonly { name: string; source: string; raw?: true }[] = [
  { name: 'nprocs', source: 'nprocs' },
  { name: 'posix_opens', source: 'POSIX_OPENS' },
  { name: 'lustre_stripe_size', source: 'LUSTRE_STRIPE_SIZE' },
  { name: 'lustre_stripe_width', source: 'LUSTRE_STRIPE_WIDTH' },
  { name: 'posix_filenos', source: 'POSIX_FILENOS' },
  { name: 'posix_dups', source: 'POSIX_DUPS', raw: true },
  { name: 'posix_mmaps', source: 'POSIX_MMAPS', raw: true },
  { name: 'posix_rename_sources', source: 'POSIX_RENAME_SOURCES', raw: true },
  { name: 'posix_rename_targets', source: 'POSIX_RENAME_TARGETS', raw: true },
  { name: 'posix_renamed_from', source: 'POSIX_RENAMED_FROM', raw: true },
  { name: 'posix_mem_alignment', source: 'POSIX_MEM_ALIGNMENT' },
  { name: 'posix_file_alignment', source: 'POSIX_FILE_ALIGNMENT' },
  ...['READS', 'WRITES', 'SEEKS', 'STATS', 'BYTES_READ', 'BYTES_WRITTEN', 'CONSEC_READS', 'CONSEC_WRITES', 'SEQ_READS',
    'SEQ_WRITES', 'FSYNCS', 'FDSYNCS', 'RW_SWITCHES', 'MEM_NOT_ALIGNED', 'FILE_NOT_ALIGNED'].map((c) => ({ name: `posix_${c.toLowerCase()}`, source: `POSIX_${c}` })),
  ...['READ', 'WRITE'].flatMap((d) =>
    ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'].map((b) => ({
      name: `posix_size_${d.toLowerCase()}_${b.toLowerCase()}`,
      source: `POSIX_SIZE_${d}_${b}`,
    })),
  ),
  ...[1, 2, 3, 4].map((k) => ({ name: `posix_stride${k}_stride`, source: `POSIX_STRIDE${k}_STRIDE` })),
  ...[1, 2, 3, 4].map((k) => ({ name: `posix_stride${k}_count`, source: `POSIX_STRIDE${k}_COUNT` })),
  ...[1, 2, 3, 4].map((k) => ({ name: `posix_access${k}_access`, source: `POSIX_ACCESS${k}_ACCESS` })),
  ...[1, 2, 3, 4].map((k) => ({ name: `posix_access${k}_count`, source: `POSIX_ACCESS${k}_COUNT` })),
  { name: 'posix_f_variance_rank_bytes', source: 'POSIX_F_VARIANCE_RANK_BYTES' },
];

/** AIIO feature values, in AIIO_FEATURES order. */
export function aiioFeatures(tot: PosixTotals, nprocs: number, striping: { stripeSize: number; stripeWidth: number }): number[] {
  return AIIO_FEATURES.map((f) => {
    let x: number;
    if (f.source === 'nprocs') x = nprocs;
    else if (f.source === 'LUSTRE_STRIPE_SIZE') x = striping.stripeSize;
    else if (f.source === 'LUSTRE_STRIPE_WIDTH') x = striping.stripeWidth;
    else x = tot.v.get(f.source) ?? 0;
    return f.raw ? Math.max(0, x) : log1p10(x);
  });
}

const SIZE_BINS = ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'];

/** Gauge's features: [column suffix, definition for docs]. */
export const GAUGE_FEATURES: readonly { name: string; doc: string }[] = [
  { name: 'bytes_read_perc', doc: 'POSIX_BYTES_READ / (POSIX_BYTES_READ + POSIX_BYTES_WRITTEN)' },
  { name: 'bytes_written_perc', doc: 'POSIX_BYTES_WRITTEN / total bytes' },
  { name: 'unique_files_perc', doc: 'files opened by one rank only / total files' },
  { name: 'shared_files_perc', doc: 'files with a shared (rank -1) record or records from several ranks / total files' },
  { name: 'read_only_files_perc', doc: 'files read and never written / total files' },
  { name: 'read_write_files_perc', doc: 'files read and written / total files' },
  { name: 'write_only_files_perc', doc: 'files written and never read / total files' },
  ...['READS', 'WRITES', 'RW_SWITCHES', 'SEQ_READS', 'SEQ_WRITES', 'CONSEC_READS', 'CONSEC_WRITES', 'FILE_NOT_ALIGNED', 'MEM_NOT_ALIGNED'].map(
    (c) => ({ name: `${c.toLowerCase()}_perc`, doc: `POSIX_${c} / (POSIX_READS + POSIX_WRITES)` }),
  ),
  ...['READ', 'WRITE'].flatMap((d) =>
    SIZE_BINS.map((b) => ({ name: `size_${d.toLowerCase()}_${b.toLowerCase()}_perc`, doc: `POSIX_SIZE_${d}_${b} / (POSIX_READS + POSIX_WRITES)` })),
  ),
  ...[1, 2, 3, 4].map((k) => ({ name: `access${k}_count_perc`, doc: `POSIX_ACCESS${k}_COUNT (job's ${k}th most common access size) / (POSIX_READS + POSIX_WRITES)` })),
  { name: 'log10_nprocs', doc: 'log10(nprocs + 1)' },
  { name: 'log10_run_time', doc: 'log10(run time in seconds + 1)' },
  { name: 'log10_total_bytes', doc: 'log10(POSIX_BYTES_READ + POSIX_BYTES_WRITTEN + 1)' },
  { name: 'log10_total_accesses', doc: 'log10(POSIX_READS + POSIX_WRITES + 1)' },
  { name: 'log10_total_files', doc: 'log10(distinct POSIX files + 1)' },
  { name: 'log10_opens', doc: 'log10(POSIX_OPENS + 1)' },
  { name: 'log10_seeks', doc: 'log10(POSIX_SEEKS + 1)' },
  { name: 'log10_stats', doc: 'log10(POSIX_STATS + 1)' },
  { name: 'log10_read_time', doc: 'log10(POSIX_F_READ_TIME + 1), cumulative seconds over ranks' },
  { name: 'log10_write_time', doc: 'log10(POSIX_F_WRITE_TIME + 1)' },
  { name: 'log10_meta_time', doc: 'log10(POSIX_F_META_TIME + 1)' },
];

/** Gauge feature values, in GAUGE_FEATURES order. Ratios with a zero denominator are 0, as Gauge's fillna(0). */
export function gaugeFeatures(tot: PosixTotals, nprocs: number, runTime: number): number[] {
  const g = (c: string) => tot.v.get(c) ?? 0;
  const div = (a: number, b: number) => (b > 0 ? a / b : 0);
  const bytes = g('POSIX_BYTES_READ') + g('POSIX_BYTES_WRITTEN');
  const acc = g('POSIX_READS') + g('POSIX_WRITES');
  const f = tot.files;
  const out: number[] = [
    div(g('POSIX_BYTES_READ'), bytes),
    div(g('POSIX_BYTES_WRITTEN'), bytes),
    div(f.unique, f.total),
    div(f.shared, f.total),
    div(f.readOnly, f.total),
    div(f.readWrite, f.total),
    div(f.writeOnly, f.total),
  ];
  for (const c of ['READS', 'WRITES', 'RW_SWITCHES', 'SEQ_READS', 'SEQ_WRITES', 'CONSEC_READS', 'CONSEC_WRITES', 'FILE_NOT_ALIGNED', 'MEM_NOT_ALIGNED'])
    out.push(div(g(`POSIX_${c}`), acc));
  for (const d of ['READ', 'WRITE']) for (const b of SIZE_BINS) out.push(div(g(`POSIX_SIZE_${d}_${b}`), acc));
  for (let k = 1; k <= 4; k++) out.push(div(g(`POSIX_ACCESS${k}_COUNT`), acc));
  out.push(
    log1p10(nprocs),
    log1p10(runTime),
    log1p10(bytes),
    log1p10(acc),
    log1p10(f.total),
    log1p10(g('POSIX_OPENS')),
    log1p10(g('POSIX_SEEKS')),
    log1p10(g('POSIX_STATS')),
    log1p10(g('POSIX_F_READ_TIME')),
    log1p10(g('POSIX_F_WRITE_TIME')),
    log1p10(g('POSIX_F_META_TIME')),
  );
  return out;
}
