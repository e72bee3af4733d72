#!/usr/bin/env node
// Reading only (no views): DFTracer files through the byte scanner or through JSON.parse, CPU time and wall time.
// usage: node bench/dftracer-read.mjs <dir-or-file> [scanner|json]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkWriter, TraceDicts } from '../dist/trace/model.js';
import { readDftracer } from '../dist/trace/readers/dftracer.js';

const p = process.argv[2];
const mode = process.argv[3] ?? 'scanner';
const files = statSync(p).isDirectory() ? readdirSync(p).filter((f) => /\.pfw(\.gz)?$/.test(f)).sort().map((f) => join(p, f)) : [p];
let rows = 0;
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const r = await readDftracer(files, new ChunkWriter(new TraceDicts(), (c) => { rows += c.length; }), { scanner: mode !== 'json' });
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(c0);
const user = (cpu.user + cpu.system) / 1e6;
console.log(JSON.stringify({ mode, events: r.events, rows, wall_s: +wall.toFixed(3), cpu_s: +user.toFixed(3), events_per_cpu_s: Math.round(r.events / user), events_per_wall_s: Math.round(r.events / wall) }));
