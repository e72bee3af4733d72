import { col, defineFeatureSet, log1p10 } from './define.js';

/**
 * Gauge (del Rosario et al., PDSW'20): counts turned into ratios of the job's total accesses, bytes and files, and
 * magnitudes as log10(x + 1). Ratios with a zero denominator are 0, as Gauge's fillna(0).
 */
const SIZE_BINS = ['0_100', '100_1K', '1K_10K', '10K_100K', '100K_1M', '1M_4M', '4M_10M', '10M_100M', '100M_1G', '1G_PLUS'];
const OP_RATIOS = ['READS', 'WRITES', 'RW_SWITCHES', 'SEQ_READS', 'SEQ_WRITES', 'CONSEC_READS', 'CONSEC_WRITES', 'FILE_NOT_ALIGNED', 'MEM_NOT_ALIGNED'];

export default defineFeatureSet({
  id: 'gauge',
  version: 1,
  description: "Gauge's 46 job features: shares of bytes, files and accesses by kind, access-size shares, and log10 magnitudes.",
  columnPrefix: 'gauge_',
  columns: [
    col('bytes_read_perc', 'double', 'ratio', 'POSIX_BYTES_READ / (POSIX_BYTES_READ + POSIX_BYTES_WRITTEN)'),
    col('bytes_written_perc', 'double', 'ratio', 'POSIX_BYTES_WRITTEN / total bytes'),
    col('unique_files_perc', 'double', 'ratio', 'files opened by one rank only / total files'),
    col('shared_files_perc', 'double', 'ratio', 'files with a shared (rank -1) record or records from several ranks / total files'),
    col('read_only_files_perc', 'double', 'ratio', 'files read and never written / total files'),
    col('read_write_files_perc', 'double', 'ratio', 'files read and written / total files'),
    col('write_only_files_perc', 'double', 'ratio', 'files written and never read / total files'),
    ...OP_RATIOS.map((c) => col(`${c.toLowerCase()}_perc`, 'double', 'ratio', `POSIX_${c} / (POSIX_READS + POSIX_WRITES)`)),
    ...['READ', 'WRITE'].flatMap((d) =>
      SIZE_BINS.map((b) => col(`size_${d.toLowerCase()}_${b.toLowerCase()}_perc`, 'double', 'ratio', `POSIX_SIZE_${d}_${b} / (POSIX_READS + POSIX_WRITES)`)),
    ),
    ...[1, 2, 3, 4].map((k) => col(`access${k}_count_perc`, 'double', 'ratio', `POSIX_ACCESS${k}_COUNT (job's ${k}th most common access size) / (POSIX_READS + POSIX_WRITES)`)),
    col('log10_nprocs', 'double', 'log10', 'log10(nprocs + 1)'),
    col('log10_run_time', 'double', 'log10', 'log10(run time in seconds + 1)'),
    col('log10_total_bytes', 'double', 'log10', 'log10(POSIX_BYTES_READ + POSIX_BYTES_WRITTEN + 1)'),
    col('log10_total_accesses', 'double', 'log10', 'log10(POSIX_READS + POSIX_WRITES + 1)'),
    col('log10_total_files', 'double', 'log10', 'log10(distinct POSIX files + 1)'),
    col('log10_opens', 'double', 'log10', 'log10(POSIX_OPENS + 1)'),
    col('log10_seeks', 'double', 'log10', 'log10(POSIX_SEEKS + 1)'),
    col('log10_stats', 'double', 'log10', 'log10(POSIX_STATS + 1)'),
    col('log10_read_time', 'double', 'log10', 'log10(POSIX_F_READ_TIME + 1), cumulative seconds over ranks'),
    col('log10_write_time', 'double', 'log10', 'log10(POSIX_F_WRITE_TIME + 1)'),
    col('log10_meta_time', 'double', 'log10', 'log10(POSIX_F_META_TIME + 1)'),
  ],
  compute(facts) {
    const tot = facts.get('posix.counterTotals');
    const job = facts.get('job');
    const g = (c: string) => tot.counters[c] ?? 0;
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
    for (const c of OP_RATIOS) out.push(div(g(`POSIX_${c}`), acc));
    for (const d of ['READ', 'WRITE']) for (const b of SIZE_BINS) out.push(div(g(`POSIX_SIZE_${d}_${b}`), acc));
    for (let k = 1; k <= 4; k++) out.push(div(g(`POSIX_ACCESS${k}_COUNT`), acc));
    out.push(
      log1p10(job.processes),
      log1p10(job.runSeconds),
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
  },
});
