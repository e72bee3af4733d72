// Clustering benchmark: time, peak memory and quality of HDBSCAN* on generated job tables (60 counter columns, 5 %
// background jobs) at 10,000 and 100,000 rows, exact and on principal components. Two tables: 'distinct' has 20
// unrelated applications; 'variants' has 5 applications × 4 variants that differ in a quarter of their counters.
// Quality: adjusted Rand index (ARI) of each approximation against the exact result at 10,000 rows, and of every
// run against the generating configurations. As a yardstick, the ARI between two exact runs whose minSamples
// differ by one (10 and 11) shows how much a harmless change of a knob moves the answer. Each run is its own
// process (clean peak RSS). CPU seconds count every thread of the process: on a busy machine they show the work
// done, while wall seconds also show the waiting for a core.
//
// usage: npx tsc -p tsconfig.json && node bench/cluster-bench.mjs [--sizes 10000,100000] [--tables distinct,variants]
//        [--threads 2] [--runs 1] [--exact-sizes 30000]  (with --sizes 30000: exact and 15 components at 30,000 rows)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, median } from './lib.mjs';

const D = 60;
const TABLES = { distinct: { configs: 20, variants: 1 }, variants: { configs: 5, variants: 4 } };
const SEED = 1;
const MIN_SAMPLES = 10;
const minClusterSize = (n) => Math.round(n / 200);

async function one(table, n, pca, threads, minSamples, labelsFile) {
  const { jobMixture } = await import('../dist/cluster/synth.js');
  const { clusterMatrix } = await import('../dist/cluster/cluster.js');
  const { adjustedRandIndex } = await import('../dist/cluster/ari.js');
  const m = jobMixture({ n, d: D, ...TABLES[table], seed: SEED });
  const opts = { minClusterSize: minClusterSize(n), minSamples, threads, pca: pca === 'none' ? null : Number(pca) };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await clusterMatrix(m.data, n, D, opts);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0); // all threads of this process, workers included
  writeFileSync(labelsFile, Buffer.from(r.labels.buffer));
  const noise = r.labels.reduce((a, l) => a + (l < 0 ? 1 : 0), 0) / n;
  console.log(
    JSON.stringify({
      n,
      pca,
      algorithm: r.info.algorithm,
      threads: r.info.threads,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      stages: r.info.seconds,
      rssMiB: process.resourceUsage().maxRSS / 1024,
      clusters: r.selectedClusters.length,
      noise,
      ariTruth: adjustedRandIndex(r.labels, m.labels),
    }),
  );
}

function spawnOne(table, n, pca, threads, minSamples, labelsFile) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'one', table, n, pca, threads, minSamples, labelsFile], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`run ${n} ${pca} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const sizes = opt('--sizes', '10000,100000').split(',').map(Number);
  const tables = opt('--tables', 'distinct,variants').split(',');
  // Sizes above 20,000 at which the exact (all-column) run is made too, to measure how exact time grows.
  const exactSizes = opt('--exact-sizes', '').split(',').filter(Boolean).map(Number);
  const threads = Number(opt('--threads', '2'));
  const runs = Number(opt('--runs', '1'));
  const { adjustedRandIndex } = await import('../dist/cluster/ari.js');
  const dir = mkdtempSync(join(tmpdir(), 'iolens-cluster-bench-'));
  const load0 = loadavg()[0];
  console.log(`machine: ${machine()}; load average before: ${load0.toFixed(2)}; threads: ${threads}`);
  console.log(`data: jobMixture n × ${D}, seed ${SEED}; minClusterSize n/200, minSamples ${MIN_SAMPLES}\n`);
  console.log('| table | rows | space | MST | seconds | CPU seconds | peak RSS | clusters | noise | ARI vs exact | ARI vs configurations |');
  console.log('|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const table of tables) {
    for (const n of sizes) {
      const plans = n <= 20000 ? ['none', 'none/11', '20', '15', '12', '10', '8'] : exactSizes.includes(n) ? ['none', '15'] : ['15', '12', '10'];
      let exactLabels = null;
      for (const plan of plans) {
        const [pca, ms] = plan.split('/');
        const minSamples = Number(ms ?? MIN_SAMPLES);
        const file = join(dir, `labels-${table}-${n}-${pca}-${minSamples}.bin`);
        const all = [];
        for (let k = 0; k < runs; k++) all.push(spawnOne(table, n, pca, threads, minSamples, file));
        const r = all[0];
        const labels = new Int32Array(readFileSync(file).buffer.slice(0));
        if (plan === 'none') exactLabels = labels;
        const vsExact = plan === 'none' ? '1 (reference)' : exactLabels ? adjustedRandIndex(labels, exactLabels).toFixed(4) : 'n/a';
        const space = pca === 'none' ? `all ${D} columns (exact${ms ? `, minSamples ${ms}` : ''})` : `${pca} principal components`;
        console.log(
          `| ${table} | ${n.toLocaleString('en-US')} | ${space} | ${r.algorithm} | ${median(all.map((x) => x.seconds)).toFixed(2)} | ${median(all.map((x) => x.cpuSeconds)).toFixed(2)} | ${Math.round(median(all.map((x) => x.rssMiB)))} MiB | ${r.clusters} | ${(100 * r.noise).toFixed(1)} % | ${vsExact} | ${r.ariTruth.toFixed(4)} |`,
        );
        console.error(JSON.stringify(all));
      }
    }
  }
  console.log(`\nload average after: ${loadavg()[0].toFixed(2)}`);
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[2] === 'one') {
  const [, , , table, n, pca, threads, minSamples, file] = process.argv;
  await one(table, Number(n), pca, Number(threads), Number(minSamples), file);
} else {
  await main();
}
