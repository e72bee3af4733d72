#!/usr/bin/env node
// Synthesizes DFTracer gen-2 style traces (.pfw.gz, one per process, hashed strings) for benchmarks.
// usage: node bench/trace-gen-dftracer.mjs <out-dir> [events=2000000] [processes=8]
import { mkdirSync, rmSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';
import { rng } from '../dist/formats/trace/synth.js';

const out = process.argv[2];
const target = Number(process.argv[3] ?? 2_000_000);
const nproc = Number(process.argv[4] ?? 8);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const rand = rng(7);
const per = Math.ceil(target / nproc);
for (let p = 0; p < nproc; p++) {
  const pid = 1000 + p;
  const gz = createGzip({ level: 1 });
  const file = createWriteStream(join(out, `app-DEFAULT-${pid}-preload.pfw.gz`));
  gz.pipe(file);
  let buf = `[\n{"id":1,"name":"HH","cat":"dftracer","pid":${pid},"tid":${pid},"ph":"M","args":{"name":"node${p >> 2}","value":77}}\n`;
  for (let f = 0; f < 16; f++) buf += `{"id":2,"name":"FH","cat":"dftracer","pid":${pid},"tid":${pid},"ph":"M","args":{"name":"/lustre/data/p${p}/file_${f}.dat","value":${100 + f}}}\n`;
  let ts = 1727387307000000;
  for (let i = 0; i < per; i++) {
    const f = 100 + (i >> 6) % 16;
    const k = i % 64;
    ts += 5 + Math.floor(rand() * 50);
    const dur = 2 + Math.floor(rand() * 40);
    if (k === 0) buf += `{"id":${i},"name":"open64","cat":"POSIX","pid":${pid},"tid":${pid},"ts":${ts},"dur":${dur},"ph":"X","args":{"hhash":77,"p_idx":-1,"fhash":${f},"level":1,"flags":66,"ret":5}}\n`;
    else if (k === 63) buf += `{"id":${i},"name":"close","cat":"POSIX","pid":${pid},"tid":${pid},"ts":${ts},"dur":${dur},"ph":"X","args":{"hhash":77,"p_idx":-1,"fhash":${f},"level":1,"fd":5,"ret":0}}\n`;
    else buf += `{"id":${i},"name":"write","cat":"POSIX","pid":${pid},"tid":${pid},"ts":${ts},"dur":${dur},"ph":"X","args":{"hhash":77,"p_idx":-1,"fhash":${f},"level":1,"fd":5,"count":65536,"ret":65536}}\n`;
    if (buf.length > 1 << 20) {
      if (!gz.write(buf)) await once(gz, 'drain');
      buf = '';
    }
  }
  gz.end(buf + ']');
  await once(file, 'close');
}
console.log(`${out}: ${nproc} files × ${per} events = ${nproc * per} events`);
