#!/usr/bin/env node
// Benchmarks `iolens trace` (read + views + classification + rules) on one trace.
// usage: node bench/trace-bench.mjs <trace> [threads]   (threads: omitted = automatic, 1 = single thread)
import { analyzeTrace } from '../dist/trace/analyze.js';
import { BUILTIN_RULES } from '../dist/trace/rules/builtin/index.js';
import { DEFAULT_VIEWS } from '../dist/trace/views.js';

const path = process.argv[2];
const threads = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const { report } = await analyzeTrace([path], {
  views: [...DEFAULT_VIEWS],
  metric: 'iops_slope',
  minTimeShare: 0.001,
  smallBytes: 1 << 20,
  rules: BUILTIN_RULES,
  top: 10,
  ...(threads !== undefined ? { threads } : {}),
});
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
  bottlenecks: report.rules.coverage.bottlenecks,
  coverage: report.rules.coverage.share,
}));
