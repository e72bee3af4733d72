// Load on loopback: `iolens serve` answering POST /api/reports with 32 concurrent clients (autocannon), for a fixed
// time per scenario. The server runs in its own process (its decoding threads on this machine's cores); autocannon
// shares the machine. Usage: node bench/serve-load.mjs [--seconds 20] [--connections 32]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { ROOT, machine, fmt } from './lib.mjs';
import { synthesizeLog } from '../dist/formats/darshan/synth.js';
import { writeLog } from '../dist/formats/darshan/writer.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('--seconds', 20);
const CONNECTIONS = arg('--connections', 32);
const sample = readFileSync(join(ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan'));
const distinct = Array.from({ length: 400 }, (_, i) => Buffer.from(writeLog(synthesizeLog({ seed: 1000 + i, posixFiles: 4 + (i % 16), nprocs: 1 + (i % 8) * 4, stdio: true }))));

async function server(extra) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'iolens.js'), 'serve', '--port', '0', '--threads', '2', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = await once(child.stdout, 'data');
  const url = /listening on (\S+)/.exec(chunk.toString())[1];
  return { url, stop: async () => { child.kill('SIGTERM'); await once(child, 'exit'); } };
}

async function load(url, bodies, title) {
  let i = 0;
  const r = await autocannon({
    url: `${url}/api/reports?name=bench.darshan`,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 60,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/octet-stream' }, setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }) }],
  });
  return { title, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors + r.timeouts, bytes: r.throughput.average };
}

const rows = [];
const before = loadavg();
const dir = mkdtempSync(join(tmpdir(), 'iolens-serve-bench-'));
try {
  let s = await server([]);
  rows.push(await load(s.url, [sample], 'sample log (18 KB, DXT + HEATMAP; 148 KB answer), no store'));
  rows.push(await load(s.url, distinct, '400 distinct small synthetic logs, no store'));
  await s.stop();
  s = await server(['--db', join(dir, 'w.duckdb'), '--write']);
  rows.push(await load(s.url, distinct, '400 distinct small synthetic logs, --write (each stored once, then duplicates)'));
  await s.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`machine: ${machine()}; load average at the start: ${before.map((x) => x.toFixed(2)).join(' ')}`);
console.log(`${CONNECTIONS} connections, ${SECONDS} s per scenario, server with 2 decoding threads\n`);
console.log('| scenario | uploads/s | p50 latency | p99 latency | 2xx | non-2xx | errors |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.title} | ${fmt(r.rps, 1)} | ${r.p50} ms | ${r.p99} ms | ${r.ok} | ${r.non2xx} | ${r.errors} |`);
