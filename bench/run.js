// `npm run bench [-- name...]`: runs the named benchmarks (default: the quick ones) and prints their tables.
// `npm run bench -- --against darshan-util [--against drishti] [--runs N] [--quick]`: the side-by-side table
// (bench/compare.mjs) with those tools, which must be on PATH (BENCHMARKS.md says how to build them).
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Quick ones run by default; trace and ingest need generated inputs (see BENCHMARKS.md) and are run by name.
const ALL = {
  reader: ['reader.mjs'],
  perf: ['darshan-perf-bench.mjs'],
  report: ['report-bench.mjs', '--runs', '3'],
  compare: ['compare.mjs'],
};
const argv = process.argv.slice(2);
if (argv.some((a) => a.startsWith('--'))) {
  const r = spawnSync(process.execPath, [join(here, 'compare.mjs'), ...argv], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const names = argv.length ? argv : Object.keys(ALL).filter((n) => n !== 'compare');
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
