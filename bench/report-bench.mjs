// Whole-process wall time of `iolens report` over the public logs and a synthesized 50,000-file log.
// Usage: node bench/report-bench.mjs [--runs N]. Writes bench/out/report-bench.json; numbers go to BENCHMARKS.md.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { machine, median, OUT, ROOT, SHARED } from './lib.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const cli = process.env.IOLENS_CLI ?? join(ROOT, 'bin', 'iolens.js');
function wall(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`iolens ${args.join(' ')}: status ${r.status} ${r.stderr}`);
  return s;
}
const pub = join(SHARED, 'darshan-logs', 'public');
const logs = readdirSync(pub).filter((f) => f.endsWith('.darshan')).sort().map((f) => join(pub, f));
const perLog = [];
for (const mode of [[], ['--drishti']]) {
  for (const log of logs) perLog.push({ log, mode: mode.join(' ') || 'default', seconds: median(Array.from({ length: runs }, () => wall(['report', ...mode, log]))) });
}
const dir = join(tmpdir(), 'iolens-report-bench');
mkdirSync(dir, { recursive: true });
const big = join(dir, 'synth-50000.darshan');
if (!existsSync(big)) spawnSync(process.execPath, [cli, 'synth', '--posix-files', '50000', '--shared-files', '100', '--nprocs', '64', '--mpiio', big], { stdio: 'inherit' });
const bigTimes = { default: median(Array.from({ length: runs }, () => wall(['report', big]))), drishti: median(Array.from({ length: runs }, () => wall(['report', '--drishti', big]))) };
const noop = median(Array.from({ length: runs }, () => wall(['--version'])));
// Node itself, for scale: the floor under any whole-process time on this machine.
const nodeOnly = median(
  Array.from({ length: runs }, () => {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    return Number(process.hrtime.bigint() - t0) / 1e9;
  }),
);
// Batch: every public log in one process (`iolens report LOG...`), per log.
const batch = median(Array.from({ length: runs }, () => wall(['report', ...logs]))) / logs.length;
const summary = {
  machine: machine(),
  runs,
  logs: logs.length,
  nodeStartupSeconds: nodeOnly,
  versionSeconds: noop,
  batchPerLogSeconds: batch,
  medianDefault: median(perLog.filter((x) => x.mode === 'default').map((x) => x.seconds)),
  medianDrishti: median(perLog.filter((x) => x.mode === '--drishti').map((x) => x.seconds)),
  maxDefault: Math.max(...perLog.filter((x) => x.mode === 'default').map((x) => x.seconds)),
  synth50000: bigTimes,
};
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'report-bench.json'), JSON.stringify({ summary, perLog }, null, 2));
console.log(JSON.stringify(summary, null, 2));
