// Writes a synthetic Darshan archive (year/month/day folders) for the job-store benchmark.
// usage: node bench/ingest-gen.mjs DIR [LOGS=100000] [SEED=1]
import { makeArchive } from '../dist/store/synth-archive.js';

const [dir, logs = '100000', seed = '1'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/ingest-gen.mjs DIR [LOGS] [SEED]');
  process.exit(2);
}
const t0 = Date.now();
const info = makeArchive(dir, { logs: Number(logs), seed: Number(seed) });
console.log(JSON.stringify({ ...info, seconds: (Date.now() - t0) / 1000 }));
