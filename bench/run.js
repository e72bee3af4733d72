// `npm run bench [-- name...]`: runs the named benchmarks (default: all) and prints their tables.
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Quick ones run by default; trace and ingest need generated inputs (see BENCHMARKS.md) and are run by name.
const ALL = {
  reader: ['reader.mjs'],
  perf: ['darshan-perf-bench.mjs'],
  report: ['report-bench.mjs', '--runs', '3'],
};
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(ALL);
for (const name of names) {
  const cmd = ALL[name];
  if (!cmd) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(ALL).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n## ${name}\n`);
  const r = spawnSync(process.execPath, [join(here, cmd[0]), ...cmd.slice(1)], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
