// Side-by-side whole-process timings of IOLens and the reference tools, for the table in BENCHMARKS.md.
// Usage: node bench/compare.mjs [--against darshan-util] [--against drishti] [--runs N] [--quick]
//   --against darshan-util: darshan-parser and darshan-dxt-parser (found on PATH) beside `iolens parse [--dxt]`
//   --against drishti:      drishti (found on PATH) beside `iolens report`
//   with neither, IOLens alone (start-up, reports, dumps, traces). --quick leaves out the 5 M-event inputs.
// Each row runs IOLens and the reference tool alternately, N times each (default 5), stdout to /dev/null, and gives
// the medians of wall time and of CPU time (user + system of the process and its threads, from the shell's
// `times`). NODE_EXTRA_CA_CERTS is unset for IOLens (a proxy setting that costs every Node start 30-45 ms here).
// Inputs: public logs from ../shared; generated ones (a 50,000-file log, two 5 M-segment DXT logs, 5 M-event Recorder
// and DFTracer traces) are written once into bench/out/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { OUT, ROOT, SHARED, machine, median } from './lib.mjs';

const args = process.argv.slice(2);
const against = new Set(args.flatMap((a, i) => (args[i - 1] === '--against' ? [a] : [])));
for (const a of against) if (a !== 'darshan-util' && a !== 'drishti') throw new Error(`--against ${a}: known are darshan-util, drishti`);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const quick = args.includes('--quick');

function onPath(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
const tools = {
  'darshan-parser': against.has('darshan-util') ? onPath('darshan-parser') : null,
  'darshan-dxt-parser': against.has('darshan-util') ? onPath('darshan-dxt-parser') : null,
  drishti: against.has('drishti') ? onPath('drishti') : null,
};
for (const [t, p] of Object.entries(tools)) {
  if (p === null && ((t === 'drishti' && against.has('drishti')) || (t !== 'drishti' && against.has('darshan-util')))) throw new Error(`${t} is not on PATH (BENCHMARKS.md says how to build it)`);
}

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const IOLENS = join(ROOT, 'bin', 'iolens.cjs');

// bash's `times` prints milliseconds (dash's only hundredths).
const SHELL = onPath('bash') ?? 'sh';

/** One run through the shell: wall seconds and CPU seconds of the command (the shell's children), exit checked. */
function once(argv) {
  const quoted = argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(SHELL, ['-c', `${quoted} >/dev/null; s=$?; times; exit $s`], { env, encoding: 'utf8', maxBuffer: 1 << 24 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}: ${r.stderr.slice(-500)}`);
  // `times` prints the shell's own user/system times, then its children's: "0m0.123s 0m0.045s".
  const child = r.stdout.trim().split('\n').pop().match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  const cpu = child ? Number(child[1]) * 60 + Number(child[2]) + Number(child[3]) * 60 + Number(child[4]) : NaN;
  return { wall, cpu };
}

function measure(cmds) {
  const res = cmds.map(() => ({ wall: [], cpu: [] }));
  for (let i = 0; i < runs; i++) {
    cmds.forEach((c, k) => {
      const m = once(c);
      res[k].wall.push(m.wall);
      res[k].cpu.push(m.cpu);
    });
  }
  return res.map((r) => ({ wall: median(r.wall), cpu: median(r.cpu) }));
}

function input(name, make) {
  const p = join(OUT, name);
  if (!existsSync(p)) {
    mkdirSync(OUT, { recursive: true });
    process.stderr.write(`making ${p}\n`);
    make(p);
  }
  return p;
}
const iolens = (...a) => [process.execPath, IOLENS, ...a];
const pub = (f) => join(SHARED, 'darshan-logs', 'public', f);
const JLBEZ = pub('jlbez_8a_benchmark_write_parallel_id1322696_8-21-14519-8141979180909667175_12.darshan');
const SMALL = pub('mpi-io-test-x86_64-3.5.0.darshan');
const BADOST = pub('sample-badost.darshan');
const PARTIAL = pub('partial_data_dxt.darshan');
const SHARED_WRITER = pub('shared_writer.darshan');
const synth = (p, ...opts) => execFileSync(process.execPath, [IOLENS, 'synth', ...opts, p], { env, stdio: 'inherit' });
const big = input('synth-50000-files.darshan', (p) => synth(p, '--posix-files', '50000', '--shared-files', '100', '--nprocs', '64', '--mpiio'));
const dxt5m = quick ? null : input('synth-dxt-5000000.darshan', (p) => synth(p, '--dxt-segments', '5000000', '--posix-files', '64', '--nprocs', '64'));
// `iolens synth --dxt-segments 5000000` with its defaults (the input of BENCHMARKS.md's "Traces" section)
const dxt5mDefault = quick ? null : input('synth-dxt-5000000-default.darshan', (p) => synth(p, '--dxt-segments', '5000000'));
const rec5m = quick ? null : input('recorder-5m', (p) => execFileSync(process.execPath, [join(ROOT, 'bench', 'trace-gen.mjs'), p, '5000000', '16'], { stdio: 'inherit' }));
const df5m = quick ? null : input('dftracer-5m', (p) => execFileSync(process.execPath, [join(ROOT, 'bench', 'trace-gen-dftracer.mjs'), p, '5000000', '8'], { stdio: 'inherit' }));

const rows = [];
const load0 = loadavg()[0];
function row(work, ours, tool, theirs, events) {
  const [a, b] = measure(theirs ? [ours, theirs] : [ours]);
  rows.push({ work, ours: a, tool, theirs: b ?? null, events });
  process.stderr.write(`${work}: ${JSON.stringify(rows.at(-1))}\n`);
}

row('`node -e 0` (the floor)', [process.execPath, '-e', '0']);
row('`iolens --version`', iolens('--version'));
for (const [label, log] of [['small log (mpi-io-test, 2.6 KB)', SMALL], ['sample-badost', BADOST], ['jlbez (1.24 MB)', JLBEZ], ['50,000-file log', big]]) {
  row(`\`report\`, ${label}`, iolens('report', log), 'Drishti', tools.drishti ? [tools.drishti, log] : null);
}
for (const [label, log] of [['jlbez', JLBEZ], ['shared_writer', SHARED_WRITER], ['partial_data_dxt', PARTIAL]]) {
  row(`\`parse\`, ${label}`, iolens('parse', log), 'darshan-parser', tools['darshan-parser'] ? [tools['darshan-parser'], '--show-incomplete', log] : null);
}
const dxtLogs = [['partial_data_dxt (131k segments)', PARTIAL, 131065], ['jlbez (26k segments)', JLBEZ, 25973], ['shared_writer (65k segments)', SHARED_WRITER, 65482]];
if (dxt5m) dxtLogs.push(['5 M segments (64 files × 64 ranks)', dxt5m, 5e6]);
for (const [label, log] of dxtLogs) {
  row(`\`parse --dxt\`, ${label}`, iolens('parse', '--dxt', log), 'darshan-dxt-parser', tools['darshan-dxt-parser'] ? [tools['darshan-dxt-parser'], '--show-incomplete', log] : null);
}
if (dxt5mDefault) row('`trace`, DXT 5 M segments (`iolens synth` defaults)', iolens('trace', dxt5mDefault), null, null, 5e6);
if (dxt5m) row('`trace`, DXT 5 M segments (64 files × 64 ranks)', iolens('trace', dxt5m), null, null, 5e6);
if (rec5m) row('`trace`, Recorder 5 M events', iolens('trace', rec5m), null, null, 5e6);
if (df5m) row('`trace`, DFTracer 5 M events', iolens('trace', df5m), null, null, 5e6);
const load1 = loadavg()[0];

const ms = (s) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(0)} ms`);
const lines = [
  `Machine: ${machine()}; load average ${load0.toFixed(1)} before, ${load1.toFixed(1)} after. Median of ${runs} runs, alternating; NODE_EXTRA_CA_CERTS unset.`,
  '',
  '| work | IOLens wall | IOLens CPU | reference | reference wall | reference CPU | ratio (reference ÷ IOLens), CPU | wall |',
  '|---|---:|---:|---|---:|---:|---:|---:|',
  ...rows.map((r) => {
    const ev = r.events ? ` (${(r.events / r.ours.cpu / 1e6).toFixed(1)} M events per CPU-s, ${(r.events / r.ours.wall / 1e6).toFixed(1)} M/s wall)` : '';
    if (!r.theirs) return `| ${r.work} | ${ms(r.ours.wall)} | ${ms(r.ours.cpu)}${ev} | | | | | |`;
    return `| ${r.work} | ${ms(r.ours.wall)} | ${ms(r.ours.cpu)} | ${r.tool} | ${ms(r.theirs.wall)} | ${ms(r.theirs.cpu)} | **${(r.theirs.cpu / r.ours.cpu).toFixed(2)}×** | ${(r.theirs.wall / r.ours.wall).toFixed(2)}× |`;
  }),
];
console.log(lines.join('\n'));
