#!/usr/bin/env node
// Benchmarks `iolens trace` (read + views + levels + trace checks) on one trace.
// usage: node bench/trace-bench.mjs <trace> [threads]   (threads: omitted = automatic, 1 = single thread)
import { analyzeTrace } from '../dist/pipeline/trace/analyze.js';

const path = process.argv[2];
const threads = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const { report } = await analyzeTrace([path], { top: 10, ...(threads !== undefined ? { threads } : {}) });
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const cu = process.cpuUsage(c0);
// CPU seconds of the whole process (all threads): on a shared machine wall time varies with the load, this does less
const cpu = (cu.user + cu.system) / 1e6;
const ev = report.input.events;
const rss = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({
  trace: path,
  threads: threads ?? 'auto',
  events: ev,
  seconds: Number(secs.toFixed(3)),
  events_per_s: Math.round(ev / secs),
  cpu_seconds: Number(cpu.toFixed(3)),
  load_avg_1m: Number((await import('node:os')).loadavg()[0].toFixed(2)),
  peak_rss_mib: Math.round(rss),
  flagged: report.trace.coverage.bottlenecks,
  coverage: report.trace.coverage.share,
  findings: report.insights.length,
}));
