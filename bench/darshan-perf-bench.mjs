// Times computePerf (darshan-parser --perf estimates) on a synthetic 50,000-record POSIX table and on the largest
// corpus logs. Run after `npx tsc -p tsconfig.json`: node bench/darshan-perf-bench.mjs
import { FixedTable } from '../dist/formats/darshan/modules/fixed-codec.js';
import { Int64Block } from '../dist/formats/darshan/int64-block.js';
import { computeTablePerf } from '../dist/formats/darshan/perf.js';

function synthetic(n, nprocs) {
  const intNames = ['POSIX_BYTES_READ', 'POSIX_BYTES_WRITTEN'];
  const floatNames = ['POSIX_F_META_TIME', 'POSIX_F_READ_TIME', 'POSIX_F_WRITE_TIME', 'POSIX_F_SLOWEST_RANK_TIME'];
  const ranks = new Int64Block(n, 1);
  const ints = new Int64Block(n, 2);
  const floats = new Float64Array(n * 4);
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  for (let i = 0; i < n; i++) {
    ranks.data[i] = i % 97 === 0 ? -1 : i % nprocs;
    ints.data[i] = Math.floor(rnd() * 1e9);
    ints.data[n + i] = Math.floor(rnd() * 1e9);
    for (let c = 0; c < 4; c++) floats[c * n + i] = rnd();
  }
  return new FixedTable('POSIX', 1, 4, n, new BigUint64Array(n), ranks, intNames, floatNames, ints, floats, null, null);
}

function time(label, fn, reps = 50) {
  for (let i = 0; i < 5; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) fn();
  console.log(`${label}: ${((performance.now() - t0) / reps).toFixed(3)} ms`);
}

const t = synthetic(50_000, 1024);
time('computeTablePerf, 50,000 records, 1,024 ranks', () => computeTablePerf(t, 1024n));
const sparse = synthetic(50_000, 50_000);
for (let i = 0; i < 50_000; i += 3) sparse.ranks.data[i] = 10_000_000 + i; // forces the sparse per-rank path
time('computeTablePerf, 50,000 records, sparse ranks up to 1e7', () => computeTablePerf(sparse, 100_000_000n));
