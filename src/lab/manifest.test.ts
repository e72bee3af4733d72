import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DarshanLog } from '../formats/darshan/index.js';
import type { FixedTable } from '../formats/darshan/index.js';
import { PROBLEMS } from '../contract/index.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { parseLabManifest, readLabManifest, type LabRun } from './manifest.js';

// The lab (lab/README.md): logs of our own workloads, labelled by construction. These tests check that the manifest,
// the sweep definition and the committed logs agree, reading every log with the IOLens reader, for each sweep: the
// local-disk runs (lab/) and the GlusterFS runs (lab/glusterfs/, lab/pfs/README.md). WORKDIR: where the sweep ran.
const LABS = [
  { dir: join(REPO_ROOT, 'lab'), name: 'lab', fs: 'local-disk', workdir: '/tmp/iolens-lab-run/' },
  { dir: join(REPO_ROOT, 'lab', 'glusterfs'), name: 'lab/glusterfs', fs: 'glusterfs', workdir: '/mnt/iolens-pfs/run/' },
];

interface SweepCase {
  id: string;
  program: string;
  layer: string;
  labels: string[];
  also?: string[];
}

const sweep = JSON.parse(readFileSync(join(REPO_ROOT, 'lab', 'sweep.json'), 'utf8')) as { families: { family: string; cases: SweepCase[] }[] };
const cases = new Map(sweep.families.flatMap((f) => f.cases.map((c) => [`${f.family}/${c.id}`, c] as const)));
const vocabulary = new Set<string>(PROBLEMS);

/** The module that carries the bytes the application asked for, per layer of the manifest. */
const DATA_MODULE: Record<string, string> = { POSIX: 'POSIX', STDIO: 'STDIO', 'MPI-IO': 'MPI-IO', HDF5: 'H5D', PnetCDF: 'PNETCDF_VAR' };
const BYTES: Record<string, [string, string]> = {
  POSIX: ['POSIX_BYTES_READ', 'POSIX_BYTES_WRITTEN'],
  STDIO: ['STDIO_BYTES_READ', 'STDIO_BYTES_WRITTEN'],
  'MPI-IO': ['MPIIO_BYTES_READ', 'MPIIO_BYTES_WRITTEN'],
  H5D: ['H5D_BYTES_READ', 'H5D_BYTES_WRITTEN'],
  PNETCDF_VAR: ['PNETCDF_VAR_BYTES_READ', 'PNETCDF_VAR_BYTES_WRITTEN'],
};

/** Bytes read + written in the module's records of files in the run's data directory. */
function workdirBytes(log: DarshanLog, module: string, WORKDIR: string): number {
  const t = log.table<FixedTable>(module);
  if (!t) return 0;
  const [r, w] = BYTES[module];
  const read = t.int(r), written = t.int(w);
  let sum = 0;
  for (let i = 0; i < t.length; i++) if (log.names.get(t.ids[i])?.startsWith(WORKDIR)) sum += read[i] + written[i];
  return sum;
}

for (const { dir, name, fs, workdir: WORKDIR } of LABS) {
  const rows: readonly LabRun[] = readLabManifest(join(dir, 'MANIFEST.json')).runs;

  test(`${name} manifest: at least 300 runs on ${fs}, file names unique, labels from the report vocabulary`, () => {
    assert.ok(rows.length >= 300, `${rows.length} runs`);
    for (const r of rows) assert.equal(r.fs, fs, r.file);
    assert.equal(new Set(rows.map((r) => r.file)).size, rows.length);
    for (const r of rows) {
      assert.ok(r.labels.length > 0, r.file);
      for (const l of r.labels) assert.ok(l === 'healthy' || vocabulary.has(l), `${r.file}: label ${l}`);
      for (const l of r.also) assert.ok(vocabulary.has(l), `${r.file}: also ${l}`);
      if (r.labels.includes('healthy')) assert.deepEqual([r.labels, r.also], [['healthy'], []], `${r.file}: healthy stands alone`);
      assert.deepEqual(r.labels.filter((l) => r.also.includes(l)), [], `${r.file}: a problem is either injected or a side effect`);
    }
  });

  test(`${name} manifest: every row matches its sweep case and is named after family, case and rank count`, () => {
    for (const r of rows) {
      const c = cases.get(`${r.family}/${r.case}`);
      assert.ok(c, `${r.file}: no case ${r.family}/${r.case} in sweep.json`);
      assert.ok(r.file.startsWith(`${r.family}-${r.case}-np${r.ranks}`) && r.file.endsWith(r.dxt ? '-dxt.darshan' : '.darshan'), r.file);
      assert.equal(r.file.endsWith('-dxt.darshan'), r.dxt, r.file);
      assert.deepEqual([r.program, r.layer, r.labels, r.also], [c.program, c.layer, c.labels, c.also ?? []], r.file);
      assert.equal(r.bytes_moved, r.bytes_written + r.bytes_read, r.file);
      assert.ok(r.run_time_s > 0 && r.rank_io_s_min <= r.rank_io_s_median && r.rank_io_s_median <= r.rank_io_s_max, r.file);
    }
  });

  test(`${name} logs: every committed log is in the manifest and every manifest row has its log`, () => {
    const logs = readdirSync(join(dir, 'logs')).filter((f) => f.endsWith('.darshan')).sort();
    assert.deepEqual(logs, rows.map((r) => r.file).sort());
  });

  test(`${name} logs: the reader opens each one; rank count, job id, program, DXT and the layer bytes agree with the manifest`, () => {
    for (const r of rows) {
      const path = join(dir, 'logs', r.file);
      assert.ok(existsSync(path), r.file);
      const log = DarshanLog.open(path);
      assert.equal(log.job.nprocs, BigInt(r.ranks), `${r.file}: nprocs`);
      assert.equal(log.job.jobid, BigInt(r.jobid), `${r.file}: jobid`);
      assert.match(log.job.exe, new RegExp(`/${r.program} `), `${r.file}: exe`);
      assert.equal(log.has('DXT_POSIX') || log.has('DXT_MPIIO'), r.dxt && (log.has('POSIX') || log.has('MPI-IO')) && hasWorkdirDxt(log, WORKDIR), `${r.file}: DXT`);
      const module = DATA_MODULE[r.layer];
      assert.ok(module, `${r.file}: layer ${r.layer}`);
      assert.equal(workdirBytes(log, module, WORKDIR), r.bytes_moved, `${r.file}: ${module} bytes vs the workload's count`);
    }
  });
}

/** DXT keeps segments only for POSIX and MPI-IO records; a STDIO-only run has none to keep. */
function hasWorkdirDxt(log: DarshanLog, WORKDIR: string): boolean {
  for (const module of ['POSIX', 'MPI-IO']) {
    const t = log.table<FixedTable>(module);
    if (t) for (let i = 0; i < t.length; i++) if (log.names.get(t.ids[i])?.startsWith(WORKDIR)) return true;
  }
  return false;
}

test('lab manifest reader: refuses what is not a manifest of labelled runs, with the row named', () => {
  const rows = readLabManifest(join(LABS[0].dir, 'MANIFEST.json')).runs;
  const row = JSON.stringify(rows[0]);
  assert.equal(parseLabManifest(`{"version": 1, "runs": [${row}]}`).runs[0].file, rows[0].file);
  const bad: [string, RegExp][] = [
    ['not json', /x\.json: not JSON/],
    ['{"version": 2, "runs": []}', /version 2 is not 1/],
    ['{"version": 1}', /no "runs" list/],
    [`{"version": 1, "runs": [${row}, ${row}]}`, /listed twice/],
    [`{"version": 1, "runs": [${row.replace('"labels":["small-writes"]', '"labels":["slow"]')}]}`, /labels: 'slow' is not a problem/],
    [`{"version": 1, "runs": [${row.replace('"labels":["small-writes"]', '"labels":["healthy","small-writes"]')}]}`, /healthy alone/],
    [`{"version": 1, "runs": [${row.replace('"also":[]', '"also":["healthy"]')}]}`, /also: 'healthy'/],
    [`{"version": 1, "runs": [${row.replace(/"ranks":\d+/, '"ranks":"2"')}]}`, /ranks is not a number/],
    [`{"version": 1, "runs": [${row.replace(/"file":"[^"]+"/, '"file":"../x.darshan"')}]}`, /not a plain \.darshan name/],
    [`{"version": 1, "runs": [${row.replace(/"fs":"[^"]+"/, '"fs":3')}]}`, /fs is not a string/],
  ];
  for (const [text, err] of bad) assert.throws(() => parseLabManifest(text, 'x.json'), err, text.slice(0, 40));
});

/** Bytes written in `s` like `48k`, `3m`, `2000000`. */
function sizeOf(s: string | number): number {
  const m = /^(\d+)([km]?)$/.exec(String(s));
  assert.ok(m, `size ${s}`);
  return Number(m[1]) * (m[2] === 'k' ? 1024 : m[2] === 'm' ? 1048576 : 1);
}

test('lab/sweep.json pairs: ≥ 150 same-work pairs over every injected label, each twin the problem run with only its fix applied', () => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'lab', 'run-sweep.mjs'), '--pairs', '--list'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  const pairs = lines.filter((l) => l.startsWith('pair-'));
  const total = /^(\d+) pairs, (\d+) runs \((\d+) repetitions of each side\)$/m.exec(r.stdout);
  assert.ok(total, r.stdout.slice(-300));
  assert.equal(Number(total[1]), pairs.length);
  assert.ok(pairs.length >= 150, `${pairs.length} pairs`);
  assert.ok(Number(total[3]) >= 3);
  assert.equal(Number(total[2]), pairs.length * 2 * Number(total[3]));
  // Every label a problem case injects has pairs.
  const injected = new Set([...cases.values()].flatMap((c) => c.labels).filter((l) => l !== 'healthy'));
  const covered = new Set(pairs.flatMap((l) => /\[([^\]]*)\]/.exec(l)![1].split(', ')));
  assert.deepEqual([...injected].filter((l) => !covered.has(l)), []);
  // The twins: a fix of workload arguments only; the bytes stay unless the entry says they differ by design.
  const spec = (JSON.parse(readFileSync(join(REPO_ROOT, 'lab', 'sweep.json'), 'utf8')) as { pairs: { entries: { of: `${string}/${string}`; fix: Record<string, string | number | null>; sameBytes?: boolean }[] } }).pairs;
  const params = new Map<string, Record<string, string | number>>(sweep.families.flatMap((f) => f.cases.map((c) => [`${f.family}/${c.id}`, (c as unknown as { params: Record<string, string | number> }).params] as const)));
  for (const e of spec.entries) {
    assert.ok(cases.has(e.of), e.of);
    for (const k of ['ranks', 'dxt', 'io']) assert.ok(!(k in e.fix), `${e.of}: ${k} is kept`);
    if (e.sameBytes === false) continue;
    const p = params.get(e.of)!;
    const fixed = { ...p, ...e.fix };
    // Counts × sizes that the fix may trade (datasets, variables, files): the product is kept.
    for (const [n, s] of [['ndsets', 'dsize'], ['nvars', 'vsize'], ['nfiles', 'fsize']] as const) {
      if (!(n in e.fix || s in e.fix) || p[n] === undefined) continue;
      assert.equal(Number(fixed[n]) * sizeOf(fixed[s]!), Number(p[n]) * sizeOf(p[s]!), `${e.of}: ${n} × ${s}`);
    }
    if ('size' in e.fix) assert.equal(e.fix.size, p.size, `${e.of}: size`);
    // A twin's requests divide the bytes of each rank (no partial request).
    if (typeof fixed.xfer === 'string' && (typeof fixed.size === 'string' || typeof fixed.size === 'number')) assert.equal(sizeOf(fixed.size) % sizeOf(fixed.xfer), 0, `${e.of}: xfer divides size`);
  }
});

test('lab manifest reader: a same-work pair row carries its pair (role, repetition, batch, check), checked', () => {
  const rows = readLabManifest(join(LABS[0].dir, 'MANIFEST.json')).runs;
  const row = { ...rows[0], pair: { name: 'pair-x', role: 'twin', rep: 2, batch: 7, check: 'ok', sameBytes: false } };
  assert.deepEqual(parseLabManifest(JSON.stringify({ version: 1, runs: [row] })).runs[0].pair, row.pair);
  assert.equal(parseLabManifest(JSON.stringify({ version: 1, runs: [rows[0]] })).runs[0].pair, undefined);
  const bad: [unknown, RegExp][] = [
    [{ ...row.pair, role: 'x' }, /pair role x is not problem or twin/],
    [{ ...row.pair, check: 'maybe' }, /pair check maybe is not ok, failed or none/],
    [{ ...row.pair, rep: 0 }, /pair rep 0 is not a positive integer/],
    ['p', /pair is not an object/],
  ];
  for (const [pair, err] of bad) assert.throws(() => parseLabManifest(JSON.stringify({ version: 1, runs: [{ ...row, pair }] }), 'x.json'), err);
});
