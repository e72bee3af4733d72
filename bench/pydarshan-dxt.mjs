#!/usr/bin/env node
// Side by side on one DXT log, same machine, same run (issue 43): `iolens trace --json` (the whole analysis) against
// darshan-util's `darshan-dxt-parser` (the text dump) and PyDarshan's DXT load as DXT Explorer and Drishti use it
// (`DarshanReport(log, read_all=False)`, `mod_read_all_dxt_records('DXT_POSIX')`, then
// `records['DXT_POSIX'].to_df()`: per record a DataFrame of its write segments and one of its reads).
// usage: node bench/pydarshan-dxt.mjs [--events 1e6,5e6,2e7] [--runs 1] [--scratch DIR] [--mem-cap 16GiB]
//                                     [--timeout 1800] [--tools iolens,dxt-parser,pydarshan] [--keep] [--no-skip]
// Reference tools, never installed by CI (BENCHMARKS.md, "Building the reference tools"), come from the environment:
//   DARSHAN_PREFIX   darshan-util's install prefix: DIR/bin/darshan-dxt-parser, DIR/lib/libdarshan-util.so
//   PYDARSHAN_PATH   the darshan source's darshan-util/pydarshan folder (PyDarshan used in place)
//   PYTHON           the interpreter with cffi, numpy and pandas (default /usr/bin/python3)
// A tool whose pieces are missing is left out with the reason printed. Each log is written by
// bench/trace-gen-dxt.mjs (DXT_POSIX module version 2, 40-byte segments with a thread id; 64 files × 8 ranks) into
// --scratch and deleted after its runs unless --keep. Per size the tools run in turn, --runs times (medians kept),
// each under `/usr/bin/time` (wall, user + system CPU, peak RSS) behind `timeout -s KILL` and `prlimit --as`, with
// /proc/loadavg read just before. A run that is killed, runs out of its address space or exits non-zero is recorded
// with the reason; a tool that failed at one size is not run at the larger ones (--no-skip runs it anyway).
// Prints one JSON line per run, then a Markdown table whose ratios are the tool's ÷ iolens's at the same size.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, machine, median } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const events = opt('events', '1e6,5e6,2e7').split(',').map(Number);
const runs = Number(opt('runs', '1'));
const scratch = opt('scratch', '/tmp/iolens-pydarshan');
const timeoutS = Number(opt('timeout', '1800'));
const capText = opt('mem-cap', '16GiB');
const keep = args.includes('--keep');
const noSkip = args.includes('--no-skip');
const wanted = opt('tools', 'iolens,dxt-parser,pydarshan').split(',');

const size = (s) => {
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?$/i.exec(s);
  if (!m) throw new Error(`bad size ${s}`);
  return Math.round(Number(m[1]) * 1024 ** ' KMGT'.indexOf(m[2].toUpperCase() || ' '));
};
const cap = size(capText);
for (const bin of ['/usr/bin/time', '/usr/bin/timeout', '/usr/bin/prlimit']) {
  if (!existsSync(bin)) {
    console.error(`needs ${bin} (Debian: apt-get install time coreutils util-linux)`);
    process.exit(2);
  }
}
mkdirSync(scratch, { recursive: true });

// PyDarshan's DXT load and DataFrame export, as DXT Explorer and Drishti do it; prints records and segments read
const PY = `import sys, darshan
r = darshan.DarshanReport(sys.argv[1], read_all=False)
r.mod_read_all_dxt_records('DXT_POSIX')
dfs = r.records['DXT_POSIX'].to_df()
print(len(dfs), sum(len(d['write_segments']) + len(d['read_segments']) for d in dfs))
`;
const pyFile = join(scratch, 'pydarshan-dxt.py');
writeFileSync(pyFile, PY);

const tools = [];
const skipped = [];
if (wanted.includes('iolens')) {
  const budget = ['--max-inflate', '1TiB']; // 10^8 segments inflate past the default 1 GiB
  tools.push({ name: 'iolens', label: '`iolens trace --json`', argv: (log) => [process.execPath, join(ROOT, 'bin', 'iolens.js'), 'trace', '--json', ...budget, log], env: {} });
}
const prefix = process.env.DARSHAN_PREFIX;
if (wanted.includes('dxt-parser')) {
  const bin = prefix && join(prefix, 'bin', 'darshan-dxt-parser');
  if (!bin || !existsSync(bin)) skipped.push(`darshan-dxt-parser: ${prefix ? `no ${bin}` : 'DARSHAN_PREFIX is not set'}`);
  else tools.push({ name: 'dxt-parser', label: '`darshan-dxt-parser`', argv: (log) => [bin, log], env: { LD_LIBRARY_PATH: join(prefix, 'lib') } });
}
if (wanted.includes('pydarshan')) {
  const py = process.env.PYTHON ?? '/usr/bin/python3';
  const pyPath = process.env.PYDARSHAN_PATH;
  const lib = prefix && join(prefix, 'lib', 'libdarshan-util.so');
  const env = pyPath && lib ? { PYTHONPATH: pyPath, DARSHAN_INSTALL_PREFIX: prefix, LD_LIBRARY_PATH: join(prefix, 'lib') } : {};
  let why = null;
  if (!pyPath) why = 'PYDARSHAN_PATH is not set';
  else if (!existsSync(join(pyPath, 'darshan', 'report.py'))) why = `no ${join(pyPath, 'darshan', 'report.py')}`;
  else if (!lib || !existsSync(lib)) why = prefix ? `no ${lib}` : 'DARSHAN_PREFIX is not set (PyDarshan loads its libdarshan-util.so)';
  else if (!existsSync(py)) why = `no ${py}`;
  else {
    const probe = spawnSync(py, ['-c', 'import pandas, numpy, cffi, darshan; print(darshan.__version__, pandas.__version__)'], { encoding: 'utf8', env: { ...process.env, ...env } });
    if (probe.status !== 0) why = `${py} cannot import pandas, numpy, cffi and darshan: ${probe.stderr.trim().split('\n').pop()}`;
    else console.error(`PyDarshan ${probe.stdout.trim().replace(' ', ', pandas ')} (${py})`);
  }
  if (why) skipped.push(`PyDarshan: ${why}`);
  else tools.push({ name: 'pydarshan', label: 'PyDarshan `to_df()`', argv: (log) => [py, pyFile, log], env, stdout: true });
}
for (const s of skipped) console.error(`left out: ${s}`);
console.error(`${machine()}; address-space cap ${capText}, timeout ${timeoutS} s, ${runs} run(s) per tool and size`);

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** One run: `/usr/bin/time -o F timeout -s KILL T prlimit --as=CAP cmd…`, stdout to /dev/null (PyDarshan's to a file). */
function measure(tool, log) {
  const load = loadavg();
  const statsFile = join(scratch, 'time.txt');
  const outFile = join(scratch, 'stdout.txt');
  rmSync(statsFile, { force: true });
  const fd = openSync(tool.stdout ? outFile : '/dev/null', 'w');
  const cmd = ['-o', statsFile, '-f', '%e %U %S %M %x', 'timeout', '-s', 'KILL', String(timeoutS), 'prlimit', `--as=${cap}`, ...tool.argv(log)];
  const r = spawnSync('/usr/bin/time', cmd, { stdio: ['ignore', fd, 'pipe'], env: { ...process.env, ...tool.env }, maxBuffer: 1 << 26 });
  closeSync(fd);
  const stats = readFileSync(statsFile, 'utf8').trim().split('\n');
  const [wall, user, sys, rssK, exit] = stats.pop().split(' ').map(Number);
  const signal = /terminated by signal (\d+)/.exec(stats.join('\n'))?.[1];
  const stderr = String(r.stderr).trim();
  let status = 'ok';
  const SIG = { 5: 'SIGTRAP: V8 aborts so when out of memory', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV' };
  if (signal) status = Number(signal) === 9 && wall >= timeoutS - 1 ? `killed at the ${timeoutS} s timeout` : `killed by signal ${signal} (${SIG[signal] ?? 'see stderr'})`;
  else if (exit !== 0) {
    const last = stderr.split('\n').filter((l) => l.trim()).pop() ?? '';
    // a Python traceback's innermost frame says where it failed (e.g. in log_get_dxt_record)
    const frame = [...stderr.matchAll(/File "([^"]*)", line (\d+), in (\S+)/g)].pop();
    const where = frame ? ` in ${frame[3]} (${frame[1].split('/').slice(-1)[0]}:${frame[2]})` : '';
    status = /MemoryError|Unable to allocate|Cannot allocate|out of memory|std::bad_alloc|heap out of memory/i.test(stderr) ? `out of memory at the ${capText} cap (exit ${exit}: ${last.slice(0, 120)}${where})` : `exit ${exit}: ${last.slice(0, 160)}${where}`;
  }
  let read = null;
  if (tool.stdout && status === 'ok') {
    const [recs, segs] = readFileSync(outFile, 'utf8').trim().split(/\s+/).map(Number);
    read = { records: recs, segments: segs };
  }
  return { wall, cpu: user + sys, rssMiB: rssK / 1024, status, load, read };
}

const failedAt = new Map();
const groups = [];
for (const n of events) {
  const log = join(scratch, `dxt-${n}.darshan`);
  if (!existsSync(log)) {
    const t0 = process.hrtime.bigint();
    execFileSync(process.execPath, ['bench/trace-gen-dxt.mjs', log, String(n), '64', '8'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    console.error(`generated ${log}: ${(statSync(log).size / 2 ** 20).toFixed(0)} MiB in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  }
  const inputMiB = statSync(log).size / 2 ** 20;
  const per = new Map(tools.map((t) => [t.name, []]));
  for (let k = 0; k < runs; k++) {
    for (const tool of tools) {
      if (failedAt.has(tool.name) && !noSkip) continue;
      if (per.get(tool.name).some((m) => m.status !== 'ok')) continue;
      const m = measure(tool, log);
      if (m.read && m.read.segments !== n) m.status = `read ${m.read.segments} segments of ${n}`;
      console.log(JSON.stringify({ events: n, tool: tool.name, run: k + 1, inputMiB: Math.round(inputMiB), ...m }));
      per.get(tool.name).push(m);
    }
  }
  const rows = [];
  for (const tool of tools) {
    const ms = per.get(tool.name);
    if (!ms.length) {
      rows.push({ tool, status: `not run: failed at ${failedAt.get(tool.name).toExponential()} events` });
      continue;
    }
    const bad = ms.find((m) => m.status !== 'ok');
    if (bad && !failedAt.has(tool.name)) failedAt.set(tool.name, n);
    const ok = bad ? [bad] : ms;
    rows.push({
      tool,
      status: bad ? bad.status : 'ok',
      wall: median(ok.map((m) => m.wall)),
      cpu: median(ok.map((m) => m.cpu)),
      rssMiB: median(ok.map((m) => m.rssMiB)),
      load: [...new Set(ms.map((m) => m.load.split(' ')[0]))].join(', '),
      loads: ms.map((m) => m.load),
    });
  }
  groups.push({ n, inputMiB, rows });
  if (!keep) rmSync(log, { force: true });
}
rmSync(join(scratch, 'stdout.txt'), { force: true });
rmSync(join(scratch, 'time.txt'), { force: true });

const ev = (n) => {
  const e = Math.floor(Math.log10(n));
  const m = n / 10 ** e;
  const sup = String(e).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d]);
  return m === 1 ? `10${sup}` : `${m}·10${sup}`;
};
const sec = (x) => (x >= 100 ? `${x.toFixed(0)} s` : x >= 10 ? `${x.toFixed(1)} s` : `${x.toFixed(2)} s`);
const ratio = (a, b) => {
  if (!(Number.isFinite(a) && Number.isFinite(b) && b > 0)) return '';
  const q = a / b;
  return `${q.toFixed(q >= 10 ? 0 : q >= 1 ? 1 : 2)}×`;
};
console.log('\n| events | log | tool | wall | CPU (user + sys) | peak RSS | load (1 min) | CPU ÷ iolens | wall ÷ iolens | RSS ÷ iolens | result |');
console.log('|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---|');
for (const g of groups) {
  const io = g.rows.find((r) => r.tool.name === 'iolens' && r.status === 'ok');
  for (const r of g.rows) {
    const head = `| ${ev(g.n)} | ${g.inputMiB >= 1024 ? `${(g.inputMiB / 1024).toFixed(2)} GiB` : `${g.inputMiB.toFixed(0)} MiB`} | ${r.tool.label} |`;
    if (r.wall === undefined) {
      console.log(`${head} | | | | | | | ${r.status} |`);
      continue;
    }
    const mine = r.tool.name === 'iolens';
    const rs = (a, b) => (mine || !io || r.status !== 'ok' ? '' : ratio(a, b));
    console.log(`${head} ${sec(r.wall)} | ${sec(r.cpu)} | ${r.rssMiB >= 1024 ? `${(r.rssMiB / 1024).toFixed(1)} GiB` : `${r.rssMiB.toFixed(0)} MiB`} | ${r.load} | ${rs(r.cpu, io?.cpu)} | ${rs(r.wall, io?.wall)} | ${rs(r.rssMiB, io?.rssMiB)} | ${r.status} |`);
  }
}
if (skipped.length) console.log(`\nLeft out: ${skipped.join('; ')}.`);
