#!/usr/bin/env node
// Where `iolens trace` spends its CPU, one stage per process (single thread, no printing):
//   inflate DXT only: inflating the DXT regions, nothing else (the floor of a DXT log)
//   read    the reader alone, events dropped (the floor of reading the format)
//   cube    reading and folding the events into the cube
//   report  everything `iolens trace` does before printing (read, cube, 13 views, levels, trace checks)
// usage: node bench/trace-stages.mjs <trace> [inflate|read|cube|report]
import { cpus, loadavg } from 'node:os';
import { DarshanLog, moduleByName } from '../dist/formats/darshan/index.js';
import { Cube } from '../dist/trace/cube.js';
import { analyzeTrace } from '../dist/pipeline/trace/analyze.js';
import { ChunkWriter, TraceDicts } from '../dist/formats/trace/model.js';
import { readSource, resolveSource } from '../dist/formats/trace/readers/index.js';

const path = process.argv[2];
const stage = process.argv[3] ?? 'report';
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
let events = 0;
if (stage === 'inflate') {
  const log = DarshanLog.openFile(path);
  for (const m of ['DXT_POSIX', 'DXT_MPIIO']) {
    const pieces = log.regionChunks(moduleByName(m).id);
    if (pieces) for await (const p of pieces) events += p.length;
  }
} else if (stage === 'report') {
  events = (await analyzeTrace([path], { threads: 1 })).report.input.events;
} else {
  const cube = stage === 'cube' ? new Cube({ layerMask: 0b11111, smallBytes: 1 << 20 }) : null;
  await readSource(resolveSource([path]), new ChunkWriter(new TraceDicts(), (c) => {
    events += c.length;
    if (cube) cube.add(c);
  }));
}
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cu = process.cpuUsage(c0);
const cpu = (cu.user + cu.system) / 1e6;
console.log(JSON.stringify({
  trace: path, stage, [stage === 'inflate' ? 'bytes' : 'events']: events, wall_s: +wall.toFixed(3), cpu_s: +cpu.toFixed(3),
  [stage === 'inflate' ? 'bytes_per_cpu_s' : 'events_per_cpu_s']: Math.round(events / cpu),
  peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024), load_avg_1m: +loadavg()[0].toFixed(2), cpu: cpus()[0].model,
}));
