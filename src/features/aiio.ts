import { col, defineFeatureSet, log1p10 } from './define.js';

/**
 * AIIO (Dong, Bez, Byna, HPDC'23): job totals of POSIX counters (darshan-parser --total style), each transformed
 * with log10(x + 1), except five rarely non-zero counters kept raw, as AIIO's feature engineering does.
 */
const SOURCES: readonly { name: string; source: string; raw?: true }[] = [
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

/** Mean stripe size and stripe count over the Lustre files that have a layout component, or 0 when none. */
function striping(stripes: { stripeSize: Float64Array; stripeCount: Float64Array; hasLayout: Uint8Array } | null): { size: number; width: number } {
  if (!stripes) return { size: 0, width: 0 };
  let size = 0;
  let width = 0;
  let n = 0;
  for (let i = 0; i < stripes.stripeSize.length; i++) {
    if (!stripes.hasLayout[i]) continue;
    size += Math.max(0, stripes.stripeSize[i]);
    width += Math.max(0, stripes.stripeCount[i]);
    n++;
  }
  return n === 0 ? { size: 0, width: 0 } : { size: size / n, width: width / n };
}

export default defineFeatureSet({
  id: 'aiio',
  version: 1,
  description: "AIIO's 64 job features: POSIX job totals as log10(x + 1) (five rare counters raw), process count and Lustre striping.",
  columnPrefix: 'aiio_',
  columns: SOURCES.map((f) =>
    col(f.name, 'double', f.raw ? 'count' : 'log10', f.raw ? `${f.source} (job total, raw)` : `log10(${f.source} + 1)`),
  ),
  compute(facts) {
    const tot = facts.get('posix.counterTotals').counters;
    const nprocs = facts.get('job').processes;
    const s = striping(facts.tryGet('lustre.stripes'));
    return SOURCES.map((f) => {
      const x =
        f.source === 'nprocs' ? nprocs : f.source === 'LUSTRE_STRIPE_SIZE' ? s.size : f.source === 'LUSTRE_STRIPE_WIDTH' ? s.width : (tot[f.source] ?? 0);
      return f.raw ? Math.max(0, x) : log1p10(x);
    });
  },
});
