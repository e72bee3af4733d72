#!/usr/bin/env node
// Entry point kept as plain JavaScript so `node bin/iolens.js` works on Node 20 after `npm install` builds dist/.
import { writeFileSync } from 'node:fs';
import { main } from '../dist/cli/main.js';

// Benchmarks set IOLENS_STATS_FILE to learn the process's own peak memory and CPU time at exit.
if (process.env.IOLENS_STATS_FILE) {
  process.on('exit', () => {
    try {
      writeFileSync(process.env.IOLENS_STATS_FILE, JSON.stringify(process.resourceUsage()));
    } catch {
      // a benchmark-only aid: never let it change the exit
    }
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // main() never rejects by design; this is the last line of defence.
    process.stderr.write(`iolens: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
