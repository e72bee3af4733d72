// End-to-end benchmark of `iolens cluster` (issue 15: 100,000 jobs × 60 features in ≤ 2 min and ≤ 4 GB on 2 cores):
// the whole command — reading the table from the store, HDBSCAN*, per-node summaries and one-split rules, the local
// models with their cross-validation, saving the run, writing the hierarchy — as one process, with its wall time,
// CPU time (all threads) and peak RSS.
//
// Generated tables (default): `jobMixture` (60 counter columns, 20 applications, 5 % background jobs, seed 1) plus
// a throughput that depends on two counters and an I/O time, written as CSV and loaded with import-features.
// `--db FILE` instead clusters the `jobs` table of an existing store with the Gauge preset (e.g. a store ingested
// from the synthetic archive of bench/ingest-gen.mjs).
//
// usage: npm run build && node bench/cluster-cli.mjs [--sizes 10000,100000] [--max-models N] [--db FILE] [--keep]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, machine, runCli, fmt } from './lib.mjs';
import { jobMixture } from '../dist/cluster/synth.js';
import { adjustedRandIndex } from '../dist/cluster/ari.js';
import { rng } from '../dist/util/random.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const sizes = opt('--sizes', '10000,100000').split(',').map(Number);
const maxModels = opt('--max-models', null);
const existing = opt('--db', null);
const D = 60;

/** Writes the generated table as CSV: job, c00…c59, mibs, io_time; returns the configuration of each row. */
function writeTable(file, n) {
  const m = jobMixture({ n, d: D, configs: 20, seed: 1 });
  const r = rng(7);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const names = Array.from({ length: D }, (_, j) => `c${String(j).padStart(2, '0')}`);
  const lines = [['job', ...names, 'mibs', 'io_time'].join(',')];
  for (let i = 0; i < n; i++) {
    const row = Array.from(m.data.subarray(i * D, (i + 1) * D));
    const mibs = (100 * (1 + Math.log10(1 + row[0]))) / (1 + Math.log10(1 + row[1])) * 10 ** (0.1 * gauss());
    const ioTime = (1 + row[2]) / 1048576 / mibs;
    lines.push([i, ...row, mibs.toPrecision(6), ioTime.toPrecision(6)].join(','));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return { labels: m.labels, names };
}

function cli(label, argv) {
  const load = loadavg()[0];
  const r = runCli(argv);
  if (r.status !== 0) throw new Error(`${label}: exit ${r.status}: ${r.stderr}`);
  return { ...r, load };
}

console.log(`machine: ${machine()}; load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const dir = mkdtempSync(join(tmpdir(), 'iolens-cluster-bench-'));
try {
  const runs = existing ? [{ db: existing, n: null }] : sizes.map((n) => ({ db: join(dir, `t${n}.duckdb`), n }));
  for (const { db, n } of runs) {
    let truth = null;
    const common = ['--db', db, ...(maxModels ? ['--max-models', maxModels] : []), '--out', join(dir, 'h.json'), '--force', '-q'];
    let argv;
    if (n !== null) {
      const csv = join(dir, `t${n}.csv`);
      const t = writeTable(csv, n);
      truth = t.labels;
      writeFileSync(join(dir, 'features.txt'), t.names.join('\n') + '\n');
      const imp = cli('import', ['import-features', csv, '--db', db, '--table', 'gen', '--key', 'job', '-q']);
      console.log(`\n## generated table, ${n} rows × ${D} features (import-features: ${fmt(imp.wall, 1)} s)`);
      argv = ['cluster', ...common, '--table', 'gen', '--key', 'job', '--features', join(dir, 'features.txt'), '--target', 'mibs', '--io-time', 'io_time'];
    } else {
      console.log(`\n## jobs table of ${db}, Gauge preset`);
      argv = ['cluster', ...common];
    }
    const r = cli('cluster', argv);
    const h = JSON.parse(readFileSync(join(dir, 'h.json'), 'utf8'));
    const p = h.run.params;
    const line = {
      rows: h.run.rows,
      features: h.run.features.length,
      wallSeconds: Number(fmt(r.wall, 1)),
      cpuSeconds: Number(fmt(r.cpuSeconds, 1)),
      peakRssMiB: Math.round(r.rssMiB),
      loadBefore: Number(fmt(r.load, 2)),
      loadAfter: Number(fmt(loadavg()[0], 2)),
      stages: p.seconds,
      space: p.preparation.pca ? `${p.preparation.pca} principal components` : 'all columns',
      algorithm: p.algorithm,
      nodes: h.clusters.length,
      clusters: h.run.clusters,
      noise: h.run.noise,
      models: p.models.fitted,
    };
    if (truth) {
      const csv = execFileSync(process.execPath, [join(ROOT, 'bin', 'iolens.js'), 'cluster', '--db', db, '--run', 'latest', '--csv'], { maxBuffer: 1 << 28 }).toString();
      const labels = new Int32Array(truth.length);
      for (const l of csv.trim().split('\n').slice(1)) {
        const [k, c] = l.split(',');
        labels[Number(k)] = Number(c);
      }
      line.ariVsConfigurations = Number(fmt(adjustedRandIndex(labels, truth), 4));
    }
    const models = h.clusters.filter((c) => c.model);
    if (models.length > 0) {
      line.globalErrorFactor = Number(fmt(models[0].model.cv.median_error_factor, 3));
      line.localVsGlobal = models.slice(1).map((c) => `#${c.id} ${fmt(c.model.cv.median_error_factor, 2)}/${fmt(c.model.global.median_error_factor, 2)}`).join(' ');
    }
    console.log(JSON.stringify(line, null, 1));
  }
} finally {
  if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
