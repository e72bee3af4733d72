// Speed-up of `iolens slurm ingest` with 1, 2 and 4 array tasks on the private one-node test cluster
// (dist/testing/slurm-cluster.js: munged, slurmctld, slurmd; needs root, Slurm installed by npm run test:slurm).
// usage: node bench/slurm-scaleout.mjs [LOGS=20000] [TASKS=1,2,4]
//        node bench/slurm-scaleout.mjs trace [EVENTS=2000000] [TASKS=1,2,4]   (DFTracer, 16 files)
// Prints one JSON line per run and a Markdown table: wall time from submission to result, the tasks, the merge job,
// task wall and CPU time per log (the cost to extrapolate from) and peak task memory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeArchive } from '../dist/store/synth-archive.js';
import { ensureSlurm, startCluster } from '../dist/testing/slurm-cluster.js';

const traceMode = process.argv[2] === 'trace';
const [logsArg = traceMode ? '2000000' : '20000', tasksArg = '1,2,4'] = process.argv.slice(traceMode ? 3 : 2);
const why = ensureSlurm();
if (why) {
  console.error(why);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'iolens-scaleout-'));
const cluster = await startCluster({ cpus: 8 });
try {
  if (traceMode) await traceRuns();
  else await ingestRuns();
} finally {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}

/** Sharded `iolens slurm ingest` of a synthetic archive against one `iolens ingest -j 1`. */
async function ingestRuns() {
  const arch = join(work, 'archive');
  const t0 = Date.now();
  const info = makeArchive(arch, { logs: Number(logsArg), seed: 5, duplicateEvery: 50, junkEvery: 200 });
  console.error(`archive: ${info.files} files, ${(info.bytes / 1e6).toFixed(1)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const rows = [];
  const bin = new URL('../bin/iolens.js', import.meta.url).pathname;
  // One process, one worker thread: the baseline a task is compared with.
  const b0 = Date.now();
  const stats = join(work, 'one.usage');
  const base = spawnSync(process.execPath, [bin, 'ingest', arch, '--db', join(work, 'one.duckdb'), '-j', '1', '-q'], { env: { ...cluster.env, IOLENS_STATS_FILE: stats }, encoding: 'utf8' });
  if (base.status !== 0) throw new Error(base.stderr);
  const baseWall = (Date.now() - b0) / 1000;
  const bu = JSON.parse(readFileSync(stats, 'utf8'));
  const baseCpu = (bu.userCPUTime + bu.systemCPUTime) / 1e6;
  console.log(JSON.stringify({ run: 'one process, -j 1', wall: baseWall, cpu: baseCpu, load: loadavg()[0] }));
  for (const n of tasksArg.split(',').map(Number)) {
    const db = join(work, `t${n}.duckdb`);
    const start = Date.now();
    const r = spawnSync(process.execPath, [bin, 'slurm', 'ingest', arch, '--db', db, '--tasks', String(n), '--poll', '1'], { env: cluster.env, encoding: 'utf8' });
    const wall = (Date.now() - start) / 1000;
    if (r.status !== 0) throw new Error(r.stderr);
    const wd = `${db}.slurm`;
    const ends = [];
    let taskSeconds = 0;
    let cpu = 0;
    let rss = 0;
    let firstStart = Infinity;
    for (const f of readdirSync(join(wd, 'status'))) {
      const m = /^task-(\d+)\.(\d+)\.exit$/.exec(f);
      if (!m) continue;
      const [, ended] = readFileSync(join(wd, 'status', f), 'utf8').trim().split(/\s+/).map(Number);
      const started = Number(readFileSync(join(wd, 'status', f.replace(/exit$/, 'start')), 'utf8').trim().split(/\s+/)[0]);
      const use = JSON.parse(readFileSync(join(wd, 'status', f.replace(/exit$/, 'usage')), 'utf8'));
      cpu += (use.userCPUTime + use.systemCPUTime) / 1e6;
      rss = Math.max(rss, use.maxRSS / 1024);
      taskSeconds += ended - started;
      firstStart = Math.min(firstStart, started);
      ends.push(ended);
    }
    const result = JSON.parse(readFileSync(join(wd, 'result.json'), 'utf8'));
    const lastTask = Math.max(...ends);
    const row = {
      tasks: n,
      wall,
      slowestTaskEnd: lastTask - firstStart,
      merge: result.finished - lastTask,
      taskSecondsPerLog: taskSeconds / info.files,
      cpuMsPerLog: (cpu * 1000) / info.files,
      peakTaskMB: Math.round(rss),
      files: info.files,
      load: loadavg()[0],
      message: result.message,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  const one = rows.find((r) => r.tasks === 1) ?? rows[0];
  console.log(`\nbaseline: iolens ingest in one process, one worker thread: ${baseWall.toFixed(1)} s (${(info.files / baseWall).toFixed(0)} files/s), ${((baseCpu * 1000) / info.files).toFixed(2)} CPU ms per file\n`);
  console.log('| tasks | wall (submit → merged) | speed-up | first task start → last task end | merge job | task wall s per 1,000 files | task CPU ms per file | peak task memory |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.tasks} | ${r.wall.toFixed(1)} s | ${(one.wall / r.wall).toFixed(2)}× | ${r.slowestTaskEnd} s | ${r.merge} s | ${(r.taskSecondsPerLog * 1000).toFixed(2)} | ${r.cpuMsPerLog.toFixed(2)} | ${r.peakTaskMB} MB |`);
  }
}

/** Sharded `iolens slurm trace` of a synthetic DFTracer trace against one `iolens trace --threads 1`. */
async function traceRuns() {
  const trace = join(work, 'trace');
  const gen = spawnSync(process.execPath, [new URL('./trace-gen-dftracer.mjs', import.meta.url).pathname, trace, logsArg, '16'], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(gen.stderr);
  const bin = new URL('../bin/iolens.js', import.meta.url).pathname;
  const stats = join(work, 'one.usage');
  const b0 = Date.now();
  const one = spawnSync(process.execPath, [bin, 'trace', trace, '--json', '--threads', '1'], { env: { ...cluster.env, IOLENS_STATS_FILE: stats }, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (one.status !== 0) throw new Error(one.stderr);
  const baseWall = (Date.now() - b0) / 1000;
  const bu = JSON.parse(readFileSync(stats, 'utf8'));
  console.log(JSON.stringify({ run: 'one process, --threads 1', wall: baseWall, cpu: (bu.userCPUTime + bu.systemCPUTime) / 1e6, load: loadavg()[0] }));
  const out = [];
  for (const n of tasksArg.split(',').map(Number)) {
    const wd = join(work, `trace-${n}.slurm`);
    const start = Date.now();
    const r = spawnSync(process.execPath, [bin, 'slurm', 'trace', trace, '--json', '--tasks', String(n), '--poll', '1', '--workdir', wd], { env: cluster.env, encoding: 'utf8', maxBuffer: 1 << 30 });
    const wall = (Date.now() - start) / 1000;
    if (r.status !== 0) throw new Error(r.stderr);
    if (r.stdout !== one.stdout) throw new Error(`${n} tasks: the report differs from one process`);
    let cpu = 0;
    let longest = 0;
    for (const f of readdirSync(join(wd, 'status'))) {
      if (!f.endsWith('.usage')) continue;
      const u = JSON.parse(readFileSync(join(wd, 'status', f), 'utf8'));
      cpu += (u.userCPUTime + u.systemCPUTime) / 1e6;
      const [started] = readFileSync(join(wd, 'status', f.replace(/usage$/, 'start')), 'utf8').trim().split(/\s+/).map(Number);
      const [, ended] = readFileSync(join(wd, 'status', f.replace(/usage$/, 'exit')), 'utf8').trim().split(/\s+/).map(Number);
      longest = Math.max(longest, ended - started);
    }
    const row = { tasks: n, wall, longestTask: longest, taskCpu: cpu, load: loadavg()[0] };
    out.push(row);
    console.log(JSON.stringify(row));
  }
  console.log(`\nbaseline: iolens trace --threads 1: ${baseWall.toFixed(1)} s\n`);
  console.log('| tasks | wall (submit → report) | speed-up vs 1 task | longest task | CPU s of all tasks |');
  console.log('|---|---|---|---|---|');
  for (const r of out) console.log(`| ${r.tasks} | ${r.wall.toFixed(1)} s | ${(out[0].wall / r.wall).toFixed(2)}× | ${r.longestTask} s | ${r.taskCpu.toFixed(1)} |`);
}
