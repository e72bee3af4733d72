// Darshan reader benchmark: library decode (every module, every column) and `iolens parse` to /dev/null, whole
// process, on the three largest public logs and two synthesized logs (50,000 POSIX files; 1,000,000 DXT segments).
// Usage: node bench/reader.mjs [runs]   (after npx tsc -p tsconfig.json)
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { OUT, ROOT, SHARED, fmt, machine, median, runCli, runScript } from './lib.mjs';
import { synthesizeLog } from '../dist/formats/darshan/synth.js';
import { writeLog } from '../dist/formats/darshan/writer.js';

const runs = Number(process.argv[2] ?? 5);
mkdirSync(OUT, { recursive: true });
const synth = [
  ['synth-posix-50000.darshan', { posixFiles: 50000, sharedFiles: 16, nprocs: 1024, mpiio: true, seed: 1 }],
  ['synth-dxt-1000000.darshan', { posixFiles: 64, sharedFiles: 0, nprocs: 64, dxtSegments: 1_000_000, seed: 2 }],
];
for (const [name, opts] of synth) {
  const p = join(OUT, name);
  if (!existsSync(p)) writeFileSync(p, writeLog(synthesizeLog(opts)));
}
const pub = join(SHARED, 'darshan-logs', 'public');
const largest = readdirSync(pub)
  .filter((f) => f.endsWith('.darshan'))
  .map((f) => join(pub, f))
  .sort((a, b) => statSync(b).size - statSync(a).size)
  .slice(0, 3);
const logs = [...largest, ...synth.map(([n]) => join(OUT, n))];

const rows = [];
for (const log of logs) {
  const dec = [];
  const cli = [];
  for (let i = 0; i < runs; i++) dec.push(runScript(join(ROOT, 'bench', 'reader-decode.mjs'), [log]));
  for (let i = 0; i < runs; i++) cli.push(runCli(['parse', log]));
  if (cli.some((c) => c.status !== 0)) throw new Error(`iolens parse failed on ${log}: ${cli[0].stderr}`);
  const mb = statSync(log).size / 2 ** 20;
  rows.push({
    log: basename(log),
    mb,
    records: dec[0].records,
    segments: dec[0].segments,
    decodeMs: median(dec.map((d) => d.ms)),
    decodeProcS: median(dec.map((d) => d.wall)),
    decodeRss: median(dec.map((d) => d.maxRssMiB)),
    parseS: median(cli.map((c) => c.wall)),
    parseRss: median(cli.map((c) => c.rssMiB)),
  });
  const r = rows.at(-1);
  console.error(`${r.log}: decode ${fmt(r.decodeMs, 1)} ms (process ${fmt(r.decodeProcS)} s, ${fmt(r.decodeRss, 0)} MiB); parse ${fmt(r.parseS)} s, ${fmt(r.parseRss, 0)} MiB`);
}
const table = [
  `Machine: ${machine()}. Median of ${runs} runs each.`,
  '',
  '| log | size | records | DXT segments | decode, in process | decode, whole process | peak RSS | `iolens parse` > /dev/null | peak RSS |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.log.length > 40 ? r.log.slice(0, 37) + '…' : r.log} | ${fmt(r.mb, 2)} MiB | ${r.records} | ${r.segments} | ${fmt(r.decodeMs, 0)} ms | ${fmt(r.decodeProcS, 2)} s | ${fmt(r.decodeRss, 0)} MiB | ${fmt(r.parseS, 2)} s | ${fmt(r.parseRss, 0)} MiB |`),
];
console.log(table.join('\n'));
