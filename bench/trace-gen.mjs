#!/usr/bin/env node
// Synthesizes a large Recorder trace folder (per-rank layout) for `iolens trace` benchmarks.
// usage: node bench/trace-gen.mjs <out-dir> [events=10000000] [ranks=16]
import { mkdirSync, openSync, writeSync, closeSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeRecorderFolder, DEFAULT_FUNCS, rng } from '../dist/formats/trace/synth.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: node bench/trace-gen.mjs <out-dir> [events] [ranks]');
  process.exit(2);
}
const target = Number(process.argv[3] ?? 10_000_000);
const nranks = Number(process.argv[4] ?? 16);
const FILES = 8;
const K = 64; // writes and reads per open
const perBlock = 3 + 2 * K; // open, K writes, lseek, K reads, close
const reps = Math.ceil(target / (nranks * FILES * perBlock));
const f = (n) => DEFAULT_FUNCS.indexOf(n);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const ranks = [];
for (let r = 0; r < nranks; r++) {
  const calls = [];
  const rules = new Map();
  const top = [];
  for (let k = 0; k < FILES; k++) {
    // files 0-5 private (file-per-process), 6-7 shared by every rank
    const path = k < 6 ? `/lustre/run/out/r${r}/part_${k}.dat` : `/lustre/run/shared_${k}.h5`;
    const size = k === 3 ? 512 : k === 7 ? 4096 : 1 << 20;
    const base = calls.length;
    calls.push({ funcId: f('open'), args: [path, '66'] });
    calls.push({ funcId: f('write'), args: [path, '%p', String(size)] });
    calls.push({ funcId: f('lseek'), args: [path, '0', '0'] });
    calls.push({ funcId: f('read'), args: [path, '%p', String(size)] });
    calls.push({ funcId: f(k === 5 ? 'fsync' : '__xstat'), args: k === 5 ? [path] : ['1', path, '%p'] });
    calls.push({ funcId: f('close'), args: [path] });
    const id = -2 - k;
    rules.set(id, [[base, 1], [base + 1, K], [base + 2, 1], [base + 3, K - 1], [base + 4, 1], [base + 5, 1]]);
    top.push([id, reps]);
  }
  rules.set(-1, top);
  ranks.push({ calls, rules, ticks: new Uint32Array(0) });
}
// write metadata + cst + cfg with empty timestamps, then stream the timestamps per rank
writeRecorderFolder(out, ranks, { layout: 'per-rank' });
const perRank = FILES * perBlock * reps;
const rand = rng(42);
const CH = 1 << 16;
const buf = new Uint32Array(2 * CH);
for (let r = 0; r < nranks; r++) {
  const fd = openSync(join(out, `${r}.ts`), 'w');
  const slow = r === 3 ? 8 : 1; // rank 3 is slow
  for (let done = 0; done < perRank; ) {
    const n = Math.min(CH, perRank - done);
    for (let i = 0; i < n; i++) {
      const a = 20 + Math.floor(rand() * 200);
      buf[2 * i] = a;
      buf[2 * i + 1] = a + slow * (5 + Math.floor(rand() * 120));
    }
    writeSync(fd, buf, 0, n * 8);
    done += n;
  }
  closeSync(fd);
}
console.log(`${out}: ${nranks} ranks × ${perRank} calls = ${nranks * perRank} events`);
