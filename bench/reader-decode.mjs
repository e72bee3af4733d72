// Child process of bench/reader.mjs: opens one log and decodes every module completely (every column of every
// table materialised, DXT included), then prints its timings and peak RSS as one JSON line.
import { DarshanLog } from '../dist/formats/darshan/log.js';
import { MODULES } from '../dist/formats/darshan/modules/registry.js';

const path = process.argv[2];
const t0 = performance.now();
const log = DarshanLog.open(path);
let records = 0;
let segments = 0;
for (const m of MODULES) {
  const res = log.decode(m.id);
  if (!res) continue;
  const t = res.table;
  records += t.length;
  if (t.kind === 'fixed') {
    void t.ints;
    void t.floats;
  }
  if (t.kind === 'dxt') segments += t.segments;
}
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, records, segments, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
