#!/usr/bin/env node
// Out-of-core sweep: `iolens trace` and `iolens report` (`--from-dxt` on a DXT log) on generated traces of growing
// event counts, each run measured by `/usr/bin/time -v` (wall, user + system CPU, peak RSS) with the load average
// read just before it. Memory should stay flat as the events grow, and time grow linearly.
// usage: node bench/out-of-core.mjs [--events 1e6,1e7,1e8] [--formats dxt,recorder,dftracer] [--scratch DIR]
//                                   [--commands trace,report] [--keep]
// Inputs go to --scratch (default /tmp/iolens-big), one per format and size, and are deleted after their runs
// unless --keep. Shapes are fixed as the events grow: DXT 64 files × 8 ranks (512 records), Recorder 16 ranks ×
// 8 files, DFTracer 8 processes × 16 files. Prints one JSON line per run, then a Markdown table.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const events = opt('events', '1e6,1e7,1e8').split(',').map(Number);
const formats = opt('formats', 'dxt,recorder,dftracer').split(',');
const commands = opt('commands', 'trace,report').split(',');
const scratch = opt('scratch', '/tmp/iolens-big');
const keep = args.includes('--keep');
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error('needs GNU time at /usr/bin/time (Debian: apt-get install time)');
  process.exit(2);
}
mkdirSync(scratch, { recursive: true });

const GEN = {
  dxt: (out, n) => ['bench/trace-gen-dxt.mjs', out, String(n), '64', '8'],
  recorder: (out, n) => ['bench/trace-gen.mjs', out, String(n), '16'],
  dftracer: (out, n) => ['bench/trace-gen-dftracer.mjs', out, String(n), '8'],
};
const input = (fmt, n) => join(scratch, fmt === 'dxt' ? `dxt-${n}.darshan` : `${fmt}-${n}`);
// the readers' decompression budget (1 GiB by default) is per log, Recorder block or DFTracer file: 10^8 events
// inflate past it, so every run raises it
const BUDGET = ['--max-inflate', '1TiB'];
const argv = (cmd, fmt, path) => (cmd === 'trace' ? ['trace', ...BUDGET, path] : ['report', ...BUDGET, ...(fmt === 'dxt' ? ['--from-dxt'] : []), path]);

function bytes(path) {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((a, f) => a + bytes(join(path, f)), 0) : s.size;
}

/** One `/usr/bin/time -v node bin/iolens.js …` run, stdout to /dev/null. */
function measure(cliArgs) {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const r = spawnSync(TIME, ['-v', process.execPath, join(ROOT, 'bin', 'iolens.js'), ...cliArgs], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const field = (name) => {
    const m = new RegExp(`^\\s*${name}: (.*)$`, 'm').exec(r.stderr);
    return m ? m[1].trim() : null;
  };
  const clock = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)') ?? '0';
  const wall = clock.split(':').reduce((a, x) => a * 60 + Number(x), 0);
  const cpu = Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)'));
  const rssMiB = Number(field('Maximum resident set size \\(kbytes\\)')) / 1024;
  const status = Number(field('Exit status'));
  if (status !== 0) console.error(r.stderr.split('\n').filter((l) => l.startsWith('iolens')).join('\n'));
  return { wall, cpu, rssMiB, status, load };
}

const rows = [];
for (const n of events) {
  for (const fmt of formats) {
    const path = input(fmt, n);
    if (!existsSync(path)) {
      const t0 = process.hrtime.bigint();
      execFileSync(process.execPath, GEN[fmt](path, n), { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
      console.error(`generated ${path}: ${(bytes(path) / 2 ** 20).toFixed(0)} MiB in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
    }
    for (const cmd of commands) {
      const cliArgs = argv(cmd, fmt, path);
      const m = measure(cliArgs);
      const row = { events: n, format: fmt, command: `iolens ${cliArgs.filter((a) => a !== path).join(' ')}`, inputMiB: Math.round(bytes(path) / 2 ** 20), ...m };
      console.log(JSON.stringify(row));
      rows.push(row);
    }
    if (!keep) rmSync(path, { recursive: true, force: true });
  }
}
console.log('\n| events | format | command | input | wall | CPU (user + sys) | peak RSS | load avg (1, 5, 15 min) |');
console.log('|---:|---|---|---:|---:|---:|---:|---|');
for (const r of rows) {
  const ok = r.status === 0 ? '' : ` (exit ${r.status})`;
  console.log(`| ${r.events.toExponential().replace('e+', '×10^')} | ${r.format} | \`${r.command}\` | ${r.inputMiB} MiB | ${r.wall.toFixed(2)} s${ok} | ${r.cpu.toFixed(2)} s | ${r.rssMiB.toFixed(0)} MiB | ${r.load} |`);
}
