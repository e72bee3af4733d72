#!/usr/bin/env node
// Runs the lab sweep (lab/sweep.json): every run of our workloads under a Darshan runtime (LD_PRELOAD), one log per
// run in lab/logs/, and the manifest (lab/MANIFEST.json, lab/MANIFEST.csv) with parameters, labels, rank count,
// measured run time and bytes moved. Darshan itself is not built here: pass the path of its libdarshan.so.
//
//   node lab/run-sweep.mjs --list                          expand the sweep, print the runs and the counts
//   node lab/run-sweep.mjs --darshan-lib PATH [--filter RE] [--first] [--resume] [--workdir DIR] [--fs NAME --out DIR]
//   node lab/run-sweep.mjs --relabel                       copy labels, side effects and notes from the sweep into
//                                                          the manifest (labels are by construction: no rerun needed)
//   node lab/run-sweep.mjs --pairs --list                  expand the same-work pairs (sweep.json `pairs`), print them
//   node lab/run-sweep.mjs --pairs --darshan-lib PATH --out DIR [--fs NAME --workdir DIR] [--check CMD] [--filter RE]
//                                                          run each pair `repetitions` times, interleaved P, T, P, T …
//                                                          (one batch), CMD (e.g. `lab/pfs/pfs.sh check`) before and
//                                                          after each batch; a batch whose check fails is run again
//                                                          once, then kept and marked (`pair.check: failed`)
//
// --resume keeps the logs (and manifest rows) of runs that already have both; --filter runs a subset and --first
// only the first run of each case (a smoke test); the manifest lists only runs that have a log. Build the workloads
// (make -C lab) and IOLens (npm run build: every log is checked with `iolens parse`, a failed run is tried twice).
// Keep the default --workdir for committed logs: src/lab/manifest.test.ts finds the data files by that path.
// --fs names the file system the workload's files live on (recorded in every row as `fs`; `local-disk` by default);
// --out puts the logs and the manifest in another folder than lab/ (the GlusterFS runs: --out lab/glusterfs
// --fs glusterfs --workdir /mnt/iolens-pfs/run, see lab/pfs/README.md).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAB = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(LAB, '..');
const RUNNER_KEYS = new Set(['ranks', 'dxt', 'io']);
const PROGRAMS = new Set(['posix_lab', 'mpiio_lab', 'hdf5_lab', 'pnetcdf_lab']);
const LAYERS = new Set(['POSIX', 'STDIO', 'MPI-IO', 'HDF5', 'PnetCDF']);
const IO_COMPONENTS = new Set(['romio321', 'ompio']);
const RUN_TIMEOUT_S = 60;
const ATTEMPTS = 2;
// Runs whose case states an expected effect (a straggler's I/O time vs the median rank's) are repeated until the effect
// shows, at most this often, and the run with the strongest effect is kept; the manifest records the attempts.
const EFFECT_ATTEMPTS = 6;

const rankRatio = (row) => row.rank_io_s_max / Math.max(row.rank_io_s_median, 1e-9);

function fail(msg) {
  console.error(`run-sweep: ${msg}`);
  process.exit(1);
}

function parseArgs(argv) {
  const o = { list: false, relabel: false, resume: false, first: false, pairs: false, check: null, filter: null, lib: process.env.DARSHAN_LIB ?? null, workdir: '/tmp/iolens-lab-run', fs: 'local-disk', out: LAB };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => (i + 1 < argv.length ? argv[++i] : fail(`${a} needs a value`));
    if (a === '--list') o.list = true;
    else if (a === '--resume') o.resume = true;
    else if (a === '--relabel') o.relabel = true;
    else if (a === '--first') o.first = true;
    else if (a === '--pairs') o.pairs = true;
    else if (a === '--check') o.check = next();
    else if (a === '--filter') o.filter = new RegExp(next());
    else if (a === '--darshan-lib') o.lib = next();
    else if (a === '--workdir') o.workdir = next();
    else if (a === '--fs') {
      o.fs = next();
      if (!/^[a-z0-9][a-z0-9-]*$/.test(o.fs)) fail('--fs: a short name (a-z, 0-9, -)');
    }
    else if (a === '--out') o.out = resolve(next());
    else fail(`unknown argument ${a}`);
  }
  return o;
}

/** The problem vocabulary, read from the report types so that the lab and the tool cannot drift apart. */
function vocabulary() {
  const src = readFileSync(join(REPO, 'src', 'contract', 'finding.ts'), 'utf8');
  const m = /export const PROBLEMS = \[([\s\S]*?)\] as const;/.exec(src);
  if (!m) fail('PROBLEMS not found in src/contract/finding.ts');
  return new Set([...m[1].matchAll(/'([a-z0-9-]+)'/g)].map((x) => x[1]));
}

/** FNV-1a, 32 bits: seeds and shuffles derived from names, stable across machines. */
function fnv(s) {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(s, 'utf8')) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return h;
}

/** mulberry32 stream for the deterministic `take` subsample. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cross(grid) {
  let combos = [{}];
  for (const [k, values] of Object.entries(grid)) {
    if (!Array.isArray(values) || values.length === 0) fail(`grid ${k} must be a non-empty list`);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [k]: v })));
  }
  return combos;
}

const token = (v) => String(v).replace(/[^A-Za-z0-9.]/g, '');

/** Expands the sweep into runs: each case crossed with its grid (family grid overridden by the case's). */
function expand(sweep, vocab) {
  const runs = [];
  const names = new Set();
  for (const fam of sweep.families) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(fam.family)) fail(`family name ${fam.family}`);
    for (const c of fam.cases) runs.push(...expandCase(fam, c, vocab, names, `${fam.family}/${c.id}`, ''));
  }
  return runs;
}

/**
 * One case's runs: the case crossed with its grid (family grid overridden by the case's), `take` of them by a shuffle
 * seeded by `where`; run names start with `prefix` (empty for the sweep, `pair-` for the same-work pairs).
 */
function expandCase(fam, c, vocab, names, where, prefix) {
  const runs = [];
  {
    {
      if (!PROGRAMS.has(c.program)) fail(`${where}: program ${c.program}`);
      if (!LAYERS.has(c.layer)) fail(`${where}: layer ${c.layer}`);
      if (!Array.isArray(c.labels) || c.labels.length === 0) fail(`${where}: labels missing`);
      const labels = c.labels, also = c.also ?? [];
      for (const l of [...labels, ...also]) if (l !== 'healthy' && !vocab.has(l)) fail(`${where}: label ${l} is not in the vocabulary`);
      if (labels.includes('healthy') && (labels.length > 1 || also.length)) fail(`${where}: healthy stands alone`);
      if (c.expect && Object.keys(c.expect).some((k) => k !== 'rank_io_ratio')) fail(`${where}: expect knows only rank_io_ratio`);
      const grid = { ...(fam.grid ?? {}), ...(c.grid ?? {}) };
      if (!grid.ranks) fail(`${where}: grid.ranks missing`);
      let combos = cross(grid).map((g, i) => ({ g, i }));
      if (c.take !== undefined) {
        if (c.take > combos.length) fail(`${where}: take ${c.take} > ${combos.length} combinations`);
        const r = rng(fnv(where));
        for (let i = combos.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          [combos[i], combos[j]] = [combos[j], combos[i]];
        }
        combos = combos.slice(0, c.take).sort((a, b) => a.i - b.i);
      }
      const varied = Object.keys(grid).filter((k) => k !== 'ranks' && k !== 'dxt' && grid[k].length > 1);
      for (const { g } of combos) {
        const all = { ...(c.params ?? {}), ...g };
        const ranks = Number(all.ranks);
        if (!Number.isInteger(ranks) || ranks < 1 || ranks > 16) fail(`${where}: ranks ${all.ranks}`);
        const dxt = Number(all.dxt ?? 0) === 1;
        const io = all.io ?? null;
        if (io !== null && !IO_COMPONENTS.has(io)) fail(`${where}: io ${io}`);
        const params = Object.fromEntries(Object.entries(all).filter(([k]) => !RUNNER_KEYS.has(k)));
        const name = prefix + [fam.family, c.id, `np${ranks}`, ...varied.map((k) => `${k}${token(g[k])}`), ...(dxt ? ['dxt'] : [])].join('-');
        if (names.has(name)) fail(`duplicate run name ${name}`);
        names.add(name);
        params.seed = String(fnv(name) % 1000000007);
        runs.push({ name, family: fam.family, case: c.id, program: c.program, layer: c.layer, ranks, dxt, io, params, labels, also, note: c.note ?? '', expect: c.expect ?? null });
      }
    }
  }
  return runs;
}

/**
 * The same-work pairs (sweep.json `pairs`): for each entry, runs of its problem case (`take` of the case's grid,
 * narrowed by the entry's `grid`), each with its twin: the same run with `fix` applied to the workload arguments (null
 * removes one), labelled healthy. Returns [{ name, problem, twin, sameBytes }].
 */
function expandPairs(sweep, vocab) {
  const spec = sweep.pairs;
  if (!spec || !Array.isArray(spec.entries)) fail('sweep.json has no pairs.entries');
  if (!Number.isInteger(spec.repetitions) || spec.repetitions < 3) fail('pairs.repetitions must be an integer ≥ 3');
  const cases = new Map(sweep.families.flatMap((fam) => fam.cases.map((c) => [`${fam.family}/${c.id}`, { fam, c }])));
  const names = new Set();
  const out = [];
  const seenOf = new Set();
  for (const e of spec.entries) {
    const found = cases.get(e.of);
    if (!found) fail(`pairs: no case ${e.of}`);
    if (seenOf.has(e.of)) fail(`pairs: ${e.of} listed twice`);
    seenOf.add(e.of);
    const { fam, c } = found;
    if (c.labels.includes('healthy')) fail(`pairs: ${e.of} is a healthy case`);
    if (!e.fix || typeof e.fix !== 'object' || !Object.keys(e.fix).length) fail(`pairs: ${e.of} has no fix`);
    for (const k of Object.keys(e.fix)) if (RUNNER_KEYS.has(k)) fail(`pairs: ${e.of}: fix ${k}: a twin keeps the ranks, DXT and MPI-IO component`);
    const narrowed = { ...c, grid: { ...(c.grid ?? {}), ...(e.grid ?? {}) }, take: e.take };
    for (const problem of expandCase(fam, narrowed, vocab, names, `pairs/${e.of}`, 'pair-')) {
      const params = { ...problem.params };
      for (const [k, v] of Object.entries(e.fix)) {
        if (v === null) delete params[k];
        else params[k] = v;
      }
      if (JSON.stringify(params) === JSON.stringify(problem.params)) fail(`pairs: ${e.of}: the fix changes nothing for ${problem.name}`);
      const twin = { ...problem, params, labels: ['healthy'], also: [], note: e.note ?? '', expect: null };
      out.push({ name: problem.name, problem, twin, sameBytes: e.sameBytes !== false, repetitions: spec.repetitions });
    }
  }
  return out;
}

function needsPrep(run) {
  return run.params.op === 'read' || run.params.op === 'rmw';
}

function mpirun(run, extraEnv, withDarshan, cwd) {
  const args = ['--oversubscribe', '--allow-run-as-root', '-n', String(run.ranks)];
  if (run.io) args.push('--mca', 'io', run.io);
  for (const k of Object.keys(extraEnv)) args.push('-x', k);
  const progArgs = Object.entries(run.params).map(([k, v]) => `${k}=${v}`);
  if (!withDarshan) progArgs.push('prep=1');
  args.push(join(LAB, 'build', run.program), ...progArgs);
  const t = process.hrtime.bigint();
  const r = spawnSync('mpirun', args, { cwd, env: { ...process.env, ...extraEnv }, encoding: 'utf8', timeout: RUN_TIMEOUT_S * 1000, killSignal: 'SIGKILL', maxBuffer: 16 << 20 });
  const wall = Number(process.hrtime.bigint() - t) / 1e9;
  return { r, wall, command: `mpirun ${args.map((a) => (a.startsWith(LAB) ? `lab/${a.slice(LAB.length + 1)}` : a)).join(' ')}` };
}

function execute(run, jobid, opts, log) {
  rmSync(opts.workdir, { recursive: true, force: true });
  mkdirSync(opts.workdir, { recursive: true });
  try {
    if (needsPrep(run)) {
      const p = mpirun(run, {}, false, opts.workdir);
      if (p.r.status !== 0) throw new Error(`prep failed: ${(p.r.stderr || p.r.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`);
    }
    rmSync(log, { force: true });
    // cb_nodes=1 for Darshan's own log write: with Open MPI's OMPIO the default (cb_nodes=4) intermittently writes a
    // log whose compressed regions do not inflate (darshan-hpc/darshan#1064, fixed the same way upstream in #1071).
    const env = { LD_PRELOAD: opts.lib, DARSHAN_LOGFILE: log, DARSHAN_LOGHINTS: 'cb_nodes=1', IO_JOBID: String(jobid) };
    if (run.dxt) env.DXT_ENABLE_IO_TRACE = '1';
    const m = mpirun(run, env, true, opts.workdir);
    if (m.r.status !== 0) throw new Error(`run failed (${m.r.status ?? m.r.signal}): ${(m.r.stderr || m.r.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`);
    const line = (m.r.stdout ?? '').split('\n').find((l) => l.startsWith('LAB-RESULT '));
    if (!line) throw new Error('no LAB-RESULT line');
    if (!existsSync(log)) throw new Error('Darshan wrote no log');
    chmodSync(log, 0o644);
    const parsed = spawnSync(process.execPath, [join(REPO, 'bin', 'iolens.js'), 'parse', log], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    if (parsed.status !== 0) throw new Error(`the log does not parse: ${parsed.stderr.trim()}`);
    const res = JSON.parse(line.slice('LAB-RESULT '.length));
    const moved = res.bytes_written + res.bytes_read;
    return {
      file: `${run.name}.darshan`,
      family: run.family,
      case: run.case,
      layer: run.layer,
      program: run.program,
      ranks: run.ranks,
      dxt: run.dxt,
      io: run.io ?? '',
      params: run.params,
      labels: run.labels,
      also: run.also,
      note: run.note,
      jobid,
      command: m.command.replace(/ -x [A-Z_]+/g, ''),
      wall_s: round(m.wall, 3),
      run_time_s: res.elapsed_s,
      bytes_written: res.bytes_written,
      bytes_read: res.bytes_read,
      bytes_moved: moved,
      throughput_mib_s: round(moved / Math.max(res.elapsed_s, 1e-6) / 1048576, 2),
      rank_io_s_min: res.rank_io_s_min,
      rank_io_s_median: res.rank_io_s_median,
      rank_io_s_max: res.rank_io_s_max,
      attempts: 1,
      log_bytes: statSync(log).size,
      fs: opts.fs,
    };
  } finally {
    rmSync(opts.workdir, { recursive: true, force: true });
  }
}

const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;

/** Manifest columns, in order (JSON keys and CSV header). */
const COLUMNS = ['file', 'family', 'case', 'layer', 'program', 'ranks', 'dxt', 'io', 'params', 'labels', 'also', 'run_time_s', 'bytes_written', 'bytes_read', 'bytes_moved', 'throughput_mib_s', 'rank_io_s_min', 'rank_io_s_median', 'rank_io_s_max', 'wall_s', 'attempts', 'jobid', 'log_bytes', 'fs', 'note', 'command'];
/** The pairs' manifest adds each row's pair: name, role, repetition, batch, file-system check, same bytes. */
const PAIR_COLUMNS = [...COLUMNS, 'pair'];

function csvCell(v) {
  const s = Array.isArray(v) ? v.join(';') : typeof v === 'object' && v !== null ? Object.entries(v).map(([k, x]) => `${k}=${x}`).join(' ') : typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function writeManifest(out, rows, columns = COLUMNS) {
  rows.sort((a, b) => a.jobid - b.jobid);
  for (const r of rows) r.fs ??= 'local-disk';
  const ordered = rows.map((r) => JSON.stringify(Object.fromEntries(columns.map((c) => [c, r[c]]))));
  writeFileSync(join(out, 'MANIFEST.json'), `{"version": 1, "runs": [\n${ordered.join(',\n')}\n]}\n`);
  const csv = [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n');
  writeFileSync(join(out, 'MANIFEST.csv'), `${csv}\n`);
}

function summary(runs) {
  const count = (f) => runs.reduce((m, r) => (f(r).forEach((k) => m.set(k, (m.get(k) ?? 0) + 1)), m), new Map());
  const show = (title, m) => console.log(`${title}: ${[...m].sort((a, b) => (a[0] > b[0] ? 1 : -1)).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`${runs.length} runs`);
  show('families', count((r) => [r.family]));
  show('labels', count((r) => r.labels));
  show('layers', count((r) => [r.layer]));
  show('ranks', count((r) => [r.ranks]));
  show('dxt', count((r) => [r.dxt ? 'on' : 'off']));
}

/** Runs a shell command (the file-system check); true when it exits 0. */
function checkPasses(cmd) {
  const r = spawnSync('sh', ['-c', cmd], { cwd: REPO, encoding: 'utf8', timeout: 600 * 1000, killSignal: 'SIGKILL' });
  if (r.status !== 0) console.log(`     check failed (${r.status ?? r.signal}): ${(r.stdout + r.stderr).trim().split('\n').slice(-2).join(' | ')}`);
  return r.status === 0;
}

/**
 * The same-work pairs: each pair one batch — check, then P, T, P, T … (`repetitions` of each), then check — run again
 * once when a check fails, then kept and marked. Every repetition is a row of the manifest (`pair`).
 */
function runPairs(pairs, opts) {
  if (opts.list) {
    const byLabel = new Map();
    for (const p of pairs) {
      console.log(`${p.name}  [${p.problem.labels.join(', ')}]  fix: ${Object.entries(p.twin.params).filter(([k, v]) => p.problem.params[k] !== v).map(([k, v]) => `${k}=${v}`).concat(Object.keys(p.problem.params).filter((k) => !(k in p.twin.params)).map((k) => `-${k}`)).join(' ')}${p.sameBytes ? '' : '  (bytes differ by design)'}`);
      for (const l of p.problem.labels) byLabel.set(l, (byLabel.get(l) ?? 0) + 1);
    }
    console.log(`${pairs.length} pairs, ${pairs.length * 2 * pairs[0].repetitions} runs (${pairs[0].repetitions} repetitions of each side)`);
    console.log(`labels: ${[...byLabel].sort((a, b) => (a[0] > b[0] ? 1 : -1)).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    return;
  }
  if (opts.out === LAB) fail('--pairs needs --out DIR (the pairs have their own manifest)');
  if (!opts.lib || !existsSync(opts.lib)) fail('pass --darshan-lib PATH/libdarshan.so (or set DARSHAN_LIB)');
  for (const p of PROGRAMS) if (!existsSync(join(LAB, 'build', p))) fail(`lab/build/${p} missing: run make -C lab`);
  mkdirSync(join(opts.out, 'logs'), { recursive: true });
  const manifestPath = join(opts.out, 'MANIFEST.json');
  const previous = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')).runs : [];
  const rows = new Map(previous.map((r) => [r.file, r]));
  const todo = pairs.map((p, i) => ({ p, i })).filter(({ p }) => !opts.filter || opts.filter.test(p.name));
  let batches = 0, marked = 0, failedRuns = 0;
  for (const { p, i } of todo) {
    const files = [];
    for (let rep = 1; rep <= p.repetitions; rep++) for (const role of ['problem', 'twin']) files.push(`${p.name}-${role === 'problem' ? 'P' : 'T'}-r${rep}.darshan`);
    if (opts.resume && files.every((f) => rows.has(f) && existsSync(join(opts.out, 'logs', f)))) continue;
    let check = 'none', batch = null;
    for (let attempt = 1; attempt <= 2; attempt++) {
      batches++;
      const before = opts.check ? checkPasses(opts.check) : true;
      batch = [];
      for (let rep = 1; rep <= p.repetitions; rep++) {
        for (const role of ['problem', 'twin']) {
          const run = { ...(role === 'problem' ? p.problem : p.twin), name: `${p.name}-${role === 'problem' ? 'P' : 'T'}-r${rep}` };
          const jobid = 100000 + i * 100 + (rep - 1) * 2 + (role === 'problem' ? 0 : 1);
          const log = join(opts.out, 'logs', `${run.name}.darshan`);
          try {
            const row = execute(run, jobid, opts, log);
            row.log_bytes = statSync(log).size;
            row.pair = { name: p.name, role, rep, batch: batches, check: 'none', sameBytes: p.sameBytes };
            batch.push(row);
            console.log(`ok   ${run.name}  ${row.run_time_s.toFixed(3)} s`);
          } catch (e) {
            failedRuns++;
            rmSync(log, { force: true });
            console.log(`FAIL ${run.name}: ${e.message}`);
          }
        }
      }
      const after = opts.check ? checkPasses(opts.check) : true;
      check = opts.check ? (before && after ? 'ok' : 'failed') : 'none';
      if (check !== 'failed') break;
      if (attempt === 2) marked++;
      else console.log(`     ${p.name}: the file-system check failed around the batch: running it again`);
    }
    for (const row of batch) {
      row.pair.check = check;
      rows.set(row.file, row);
    }
    writeManifest(opts.out, [...rows.values()], PAIR_COLUMNS);
  }
  writeManifest(opts.out, [...rows.values()], PAIR_COLUMNS);
  console.log(`${batches} batches run, ${marked} kept marked (check failed twice), ${failedRuns} runs failed; manifest lists ${rows.size} logs`);
  if (failedRuns) process.exitCode = 1;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sweep = JSON.parse(readFileSync(join(LAB, 'sweep.json'), 'utf8'));
  if (opts.pairs) return runPairs(expandPairs(sweep, vocabulary()), opts);
  const runs = expand(sweep, vocabulary());
  if (opts.list) {
    for (const r of runs) console.log(`${r.name}  [${r.labels.join(', ')}${r.also.length ? ` | also ${r.also.join(', ')}` : ''}]`);
    summary(runs);
    return;
  }
  const manifestPath = join(opts.out, 'MANIFEST.json');
  const previous = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')).runs : [];
  if (opts.relabel) {
    const byName = new Map(runs.map((r) => [`${r.name}.darshan`, r]));
    const rows = previous.filter((row) => byName.has(row.file));
    for (const row of rows) {
      const r = byName.get(row.file);
      Object.assign(row, { layer: r.layer, labels: r.labels, also: r.also, note: r.note });
    }
    writeManifest(opts.out, rows);
    console.log(`relabelled ${rows.length} rows (${previous.length - rows.length} dropped: no longer in the sweep)`);
    return;
  }
  if (!opts.lib || !existsSync(opts.lib)) fail('pass --darshan-lib PATH/libdarshan.so (or set DARSHAN_LIB)');
  for (const p of PROGRAMS) if (!existsSync(join(LAB, 'build', p))) fail(`lab/build/${p} missing: run make -C lab`);
  mkdirSync(join(opts.out, 'logs'), { recursive: true });
  const byFile = new Map(previous.map((r) => [r.file, r]));
  const known = new Set(runs.map((r) => `${r.name}.darshan`));
  // Rows of runs no longer in the sweep are dropped.
  for (const f of [...byFile.keys()]) if (!known.has(f)) byFile.delete(f);
  const seen = new Set();
  const firstOfCase = ({ r }) => !seen.has(`${r.family}/${r.case}`) && seen.add(`${r.family}/${r.case}`);
  const todo = runs
    .map((r, i) => ({ r, jobid: 1000 + i }))
    .filter(({ r }) => !opts.filter || opts.filter.test(r.name))
    .filter((x) => !opts.first || firstOfCase(x));
  let done = 0, failed = 0;
  const t0 = Date.now();
  for (const { r, jobid } of todo) {
    const log = join(opts.out, 'logs', `${r.name}.darshan`);
    if (opts.resume && byFile.has(`${r.name}.darshan`) && existsSync(log)) continue;
    let error = null;
    let best = null;
    const tries = r.expect ? EFFECT_ATTEMPTS : ATTEMPTS;
    for (let attempt = 1; attempt <= tries; attempt++) {
      try {
        const row = execute(r, jobid, opts, `${log}.try`);
        row.attempts = attempt;
        error = null;
        if (!best || rankRatio(row) > rankRatio(best)) {
          renameSync(`${log}.try`, log);
          best = row;
        } else {
          rmSync(`${log}.try`, { force: true });
        }
        if (!r.expect || rankRatio(best) >= r.expect.rank_io_ratio) break;
        console.log(`     ${r.name}: attempt ${attempt}: slowest rank ${rankRatio(row).toFixed(1)}x the median, want ${r.expect.rank_io_ratio}x`);
      } catch (e) {
        rmSync(`${log}.try`, { force: true });
        if (!best) error = e;
        console.log(`     ${r.name}: attempt ${attempt}: ${e.message}`);
        if (!r.expect && attempt >= ATTEMPTS) break;
      }
    }
    if (best) {
      best.log_bytes = statSync(log).size;
      byFile.set(best.file, best);
      done++;
      const short = r.expect && rankRatio(best) < r.expect.rank_io_ratio ? `  EFFECT SHORT (${rankRatio(best).toFixed(1)}x)` : '';
      console.log(`ok   ${r.name}  ${best.run_time_s.toFixed(3)} s  ${best.throughput_mib_s} MiB/s  wall ${best.wall_s} s${best.attempts > 1 ? `  (attempt ${best.attempts})` : ''}${short}`);
    }
    if (error) {
      failed++;
      byFile.delete(`${r.name}.darshan`);
      rmSync(log, { force: true });
      console.log(`FAIL ${r.name}`);
    }
    writeManifest(opts.out, [...byFile.values()]);
  }
  writeManifest(opts.out, [...byFile.values()]);
  console.log(`${done} runs done, ${failed} failed, ${((Date.now() - t0) / 1000).toFixed(0)} s; manifest lists ${byFile.size} logs`);
  if (failed) process.exitCode = 1;
}

main();
