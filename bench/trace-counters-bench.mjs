#!/usr/bin/env node
// Benchmarks deriving Darshan counters from a trace (`iolens report <trace>`):
//   read     — the reader alone, events dropped (the floor);
//   builder  — the counter builder alone, fed from events already in memory in 65,536-event chunks;
//   report   — everything `iolens report <trace>` does except printing (read + build + facts + checks).
// usage: node bench/trace-counters-bench.mjs <trace> [read|builder|report]...   (default: all three)
import { readSource } from '../dist/pipeline/trace/analyze.js';
import { resolveSource } from '../dist/formats/trace/readers/index.js';
import { CHUNK_EVENTS, TableCollector, TraceDicts } from '../dist/formats/trace/model.js';
import { CounterBuilder } from '../dist/facts/counters/builder.js';
import { reportFromTrace } from '../dist/pipeline/report-from-trace.js';

const path = process.argv[2];
if (!path) {
  console.error('usage: node bench/trace-counters-bench.mjs <trace> [read|builder|report]...');
  process.exit(2);
}
const which = process.argv.length > 3 ? process.argv.slice(3) : ['read', 'builder', 'report'];
const { loadavg } = await import('node:os');

async function timed(name, fn) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const events = await fn();
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cu = process.cpuUsage(c0);
  console.log(JSON.stringify({
    stage: name,
    trace: path,
    events,
    seconds: Number(secs.toFixed(3)),
    events_per_s: Math.round(events / secs),
    cpu_seconds: Number(((cu.user + cu.system) / 1e6).toFixed(3)),
    load_avg_1m: Number(loadavg()[0].toFixed(2)),
    peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
  }));
}

for (const stage of which) {
  if (stage === 'read') {
    await timed('read', async () => (await readSource(resolveSource([path]), new TraceDicts(), () => {})).events);
  } else if (stage === 'builder') {
    const c = new TableCollector();
    await readSource(resolveSource([path]), new TraceDicts(), c.sink);
    const t = c.table(new TraceDicts());
    const cols = ['proc', 'host', 'app', 'file', 'func', 'layer', 'category', 'offset', 'size', 'start', 'end'];
    await timed('builder', async () => {
      const b = new CounterBuilder();
      for (let o = 0; o < t.length; o += CHUNK_EVENTS) {
        const n = Math.min(CHUNK_EVENTS, t.length - o);
        const chunk = { length: n };
        for (const k of cols) chunk[k] = t[k].subarray(o, o + n);
        b.add(chunk, t.dicts);
      }
      return t.length;
    });
  } else if (stage === 'report') {
    await timed('report', async () => (await reportFromTrace([path])).input.events);
  } else {
    console.error(`unknown stage ${stage}`);
    process.exit(2);
  }
}
