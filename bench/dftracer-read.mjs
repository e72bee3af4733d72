#!/usr/bin/env node
// Reading only (no views): DFTracer files through the byte scanner or through JSON.parse, CPU time and wall time.
// Floors: `lines` only inflates and splits lines (no per-line work); `bytes` also reads every byte of every line once
// (counting quotes), the least any parser that looks at each byte does.
// usage: node bench/dftracer-read.mjs <dir-or-file> [scanner|json|lines|bytes]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkWriter, TraceDicts } from '../dist/formats/trace/model.js';
import { readDftracer } from '../dist/formats/trace/readers/dftracer.js';
import { forEachLineBytes } from '../dist/formats/trace/readers/lines.js';

const p = process.argv[2];
const mode = process.argv[3] ?? 'scanner';
const files = statSync(p).isDirectory() ? readdirSync(p).filter((f) => /\.pfw(\.gz)?$/.test(f)).sort().map((f) => join(p, f)) : [p];
let rows = 0;
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let r;
if (mode === 'lines' || mode === 'bytes') {
  let lines = 0;
  let quotes = 0;
  for (const f of files) {
    // buffers reused as the reader reuses them (nothing here keeps a line)
    lines += await forEachLineBytes(f, mode === 'lines' ? () => {} : (b, s, e) => {
      for (let i = s; i < e; i++) if (b[i] === 34) quotes++;
    }, { beforeReuse: () => {} });
  }
  r = { events: lines };
  rows = quotes;
} else {
  r = await readDftracer(files, new ChunkWriter(new TraceDicts(), (c) => { rows += c.length; }), { scanner: mode !== 'json' });
}
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(c0);
const user = (cpu.user + cpu.system) / 1e6;
console.log(JSON.stringify({ mode, events: r.events, rows, wall_s: +wall.toFixed(3), cpu_s: +user.toFixed(3), events_per_cpu_s: Math.round(r.events / user), events_per_wall_s: Math.round(r.events / wall) }));
