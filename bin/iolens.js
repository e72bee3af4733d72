#!/usr/bin/env node
// Entry point kept as plain JavaScript so `node bin/iolens.js` works on Node 20 after `npm install` builds dist/.
import { statSync, writeFileSync } from 'node:fs';

// The bundled CLI (dist/bundle, built by `npm run build`) starts fastest. The plain compiled tree is used when there
// is no bundle or when it is older than the last compile (a developer ran only tsc).
function bundleIsCurrent() {
  try {
    return statSync(new URL('../dist/bundle/main.js', import.meta.url)).mtimeMs >= statSync(new URL('../dist/cli/main.js', import.meta.url)).mtimeMs;
  } catch {
    return false;
  }
}
const { main } = await import(bundleIsCurrent() ? '../dist/bundle/main.js' : '../dist/cli/main.js');

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
