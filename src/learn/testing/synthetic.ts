import { Rng } from '../rng.js';
import { makeTable, type Table } from '../table.js';
import type { FeatureSpec } from '../preprocess.js';

/** The injected slowdown causes of the synthetic jobs table, by the feature that carries each. */
export const CAUSES = ['small_writes', 'meta_ops', 'random_reads'] as const;

/**
 * A synthetic jobs table whose throughput (MiB/s) is a documented function of a few features:
 *   base = 50 · nprocs^0.5 · (2 if fs = 'bb' else 1)
 *   throughput = base / (1 + small_writes / 2e4) / (1 + meta_ops / 2e3) / (1 + random_reads / 2e4) · 10^N(0, 0.03)
 * Each row gets at most one cause (uniformly none or one of CAUSES); the cause's counter is drawn log-uniformly
 * from [1e5, 1e6] (meta_ops: [1e4, 1e5]) and is 0 otherwise, so an injected cause slows the job by 6× to 51×.
 * bytes_written/bytes_read and noise_a/noise_b do not affect throughput; app is a string column with 5 values.
 */
export function syntheticJobs(n: number, seed: number): { table: Table; cause: (string | null)[] } {
  const rng = new Rng(seed);
  const logU = (lo: number, hi: number): number => 10 ** (Math.log10(lo) + rng.next() * (Math.log10(hi) - Math.log10(lo)));
  const cols = {
    nprocs: new Float64Array(n),
    bytes_written: new Float64Array(n),
    bytes_read: new Float64Array(n),
    small_writes: new Float64Array(n),
    meta_ops: new Float64Array(n),
    random_reads: new Float64Array(n),
    noise_a: new Float64Array(n),
    noise_b: new Float64Array(n),
    throughput: new Float64Array(n),
    start: new Float64Array(n),
  };
  const fs: string[] = [];
  const app: string[] = [];
  const cause: (string | null)[] = [];
  for (let r = 0; r < n; r++) {
    cols.nprocs[r] = Math.round(logU(1, 1024));
    cols.bytes_written[r] = Math.round(logU(1e6, 1e11));
    cols.bytes_read[r] = rng.next() < 0.3 ? 0 : Math.round(logU(1e6, 1e11));
    cols.noise_a[r] = rng.normal();
    cols.noise_b[r] = Math.round(logU(1, 1e4));
    cols.start[r] = 1.5e9 + r * 60;
    fs.push(rng.next() < 0.4 ? 'bb' : 'lustre');
    app.push(`app${rng.int(5)}`);
    const k = rng.int(CAUSES.length + 1);
    const c = k < CAUSES.length ? CAUSES[k] : null;
    cause.push(c);
    if (c === 'small_writes') cols.small_writes[r] = Math.round(logU(1e5, 1e6));
    if (c === 'meta_ops') cols.meta_ops[r] = Math.round(logU(1e4, 1e5));
    if (c === 'random_reads') cols.random_reads[r] = Math.round(logU(1e5, 1e6));
    const base = 50 * Math.sqrt(cols.nprocs[r]) * (fs[r] === 'bb' ? 2 : 1);
    cols.throughput[r] =
      (base / (1 + cols.small_writes[r] / 2e4) / (1 + cols.meta_ops[r] / 2e3) / (1 + cols.random_reads[r] / 2e4)) * 10 ** (0.03 * rng.normal());
  }
  return { table: makeTable({ ...cols, fs, app }), cause };
}

/** The synthetic table's features: every numeric column but throughput and start, plus fs and app. */
export const SYNTHETIC_FEATURES: FeatureSpec[] = [
  ...['nprocs', 'bytes_written', 'bytes_read', 'small_writes', 'meta_ops', 'random_reads', 'noise_a', 'noise_b'].map(
    (name): FeatureSpec => ({ name, kind: 'numeric', transform: 'slog' }),
  ),
  { name: 'fs', kind: 'categorical', minCount: 5 },
  { name: 'app', kind: 'categorical', minCount: 5 },
];
