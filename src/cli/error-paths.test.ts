import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { COMMANDS } from './commands/index.js';

// Every command that reads a file the user names, given a file that is missing, not what it should be, empty, or a
// directory: exit 2, one line on stderr that names the file, no stack trace. The table below says where each
// command takes its file; a command added without a row (or a reason it reads none) fails the first test.

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const SAMPLE = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');
const tmp = mkdtempSync(join(tmpdir(), 'iolens-error-paths-'));
const out = (name: string) => join(tmp, 'out', name);
mkdirSync(join(tmp, 'out'));

/** Each command's arguments with the bad file in them (`F`). */
const TAKES_A_FILE: Record<string, (f: string) => string[]> = {
  parse: (f) => ['parse', f],
  report: (f) => ['report', f],
  trace: (f) => ['trace', f],
  compare: (f) => ['compare', f, SAMPLE],
  ingest: (f) => ['ingest', SAMPLE, '--db', f],
  merge: (f) => ['merge', f, '--db', out('merged.duckdb')],
  query: (f) => ['query', '--db', f, 'SELECT 1'],
  summary: (f) => ['summary', '--db', f],
  export: (f) => ['export', '--db', f, '--parquet', out('parquet')],
  'import-features': (f) => ['import-features', f, '--db', out('features.duckdb')],
  train: (f) => ['train', '--db', f, '--out', out('model.json')],
  predict: (f) => ['predict', '--model', f, SAMPLE],
  explain: (f) => ['explain', '--model', f, SAMPLE],
  cluster: (f) => ['cluster', '--db', f],
  eval: (f) => ['eval', f],
  serve: (f) => ['serve', '--db', f, '--port', '0'],
  mcp: (f) => ['mcp', '--db', f],
  // (an existing file is not overwritten; a missing folder cannot be written)
  synth: (f) => ['synth', f],
};
/** Commands that read no file the user names, or whose file inputs other tests cover, and why. */
const NO_FILE: Record<string, string> = {
  'list-checks': 'reads only its own catalogue',
  slurm: 'submits to Slurm; its inputs are checked in the Slurm tests',
};

test('every command either has a row of bad files to try or a reason it reads none', () => {
  assert.deepEqual(Object.keys(COMMANDS).filter((c) => !(c in TAKES_A_FILE) && !(c in NO_FILE)), []);
  assert.deepEqual([...Object.keys(TAKES_A_FILE), ...Object.keys(NO_FILE)].filter((c) => !(c in COMMANDS)), []);
});

test('a missing, wrong, empty or directory file: exit 2, one line naming it, no stack trace', () => {
  const bad = {
    missing: join(tmp, 'no-such-dir', 'x.darshan'),
    garbage: join(tmp, 'garbage.bin'),
    empty: join(tmp, 'empty.bin'),
    directory: join(tmp, 'a-directory'),
  };
  writeFileSync(bad.garbage, 'this is not anything IOLens reads\n');
  writeFileSync(bad.empty, '');
  mkdirSync(bad.directory);
  const failures: string[] = [];
  for (const [cmd, args] of Object.entries(TAKES_A_FILE)) {
    for (const [kind, f] of Object.entries(bad)) {
      const r = spawnSync(process.execPath, [BIN, ...args(f)], { encoding: 'utf8', timeout: 120_000 });
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      const ok = r.status === 2 && lines.length === 1 && lines[0].startsWith('iolens: ') && lines[0].includes(basename(f)) && !/^\s+at /m.test(r.stderr);
      if (!ok) failures.push(`${cmd} (${kind}): exit ${r.status}, ${JSON.stringify(r.stderr.slice(0, 300))}`);
    }
  }
  assert.deepEqual(failures, []);
});


test('a log compressed whole by gzip or bzip2 is read as the log itself, and is one job with it in a store', () => {
  const dir = join(tmp, 'wrapped');
  mkdirSync(dir);
  const plain = join(dir, 'run.darshan');
  writeFileSync(plain, readFileSync(SAMPLE));
  const gz = `${plain}.gz`, bz = `${plain}.bz2`;
  writeFileSync(gz, gzipSync(readFileSync(SAMPLE)));
  writeFileSync(bz, execFileSync('bzip2', ['-c', plain]));
  const report = (p: string) => {
    const r = spawnSync(process.execPath, [BIN, 'report', '--json', p], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { insights: unknown; io: unknown; job: { logName?: string } };
    // (the same report but for the name it is shown under)
    delete j.job.logName;
    return JSON.stringify([j.insights, j.io, j.job]);
  };
  assert.equal(report(gz), report(plain));
  assert.equal(report(bz), report(plain));
  const db = join(tmp, 'out', 'wrapped.duckdb');
  const ing = spawnSync(process.execPath, [BIN, 'ingest', plain, gz, bz, '--db', db], { encoding: 'utf8' });
  assert.equal(ing.status, 0, ing.stderr);
  assert.match(ing.stderr, /: 1 new jobs, 2 duplicates, 0 errors/);
  // a gzip bomb is stopped as a log's regions are: at the ratio cap
  const bomb = join(dir, 'bomb.darshan.gz');
  writeFileSync(bomb, gzipSync(new Uint8Array(64 << 20)));
  const b = spawnSync(process.execPath, [BIN, 'report', bomb], { encoding: 'utf8' });
  assert.equal(b.status, 2);
  assert.match(b.stderr, /^iolens: .*bomb\.darshan\.gz: unpacks to more than 16 MiB \(a gzip-compressed log; raise the budget with --max-inflate\)\n$/);
});

test('errors that help: ingest lists each skipped file with its reason; a trace file given as a log names the trace', () => {
  const dir = join(tmp, 'skips');
  mkdirSync(dir);
  for (let i = 0; i < 53; i++) writeFileSync(join(dir, `junk-${String(i).padStart(2, '0')}.darshan`), `not a log ${i}\n`);
  const db = join(tmp, 'out', 'skips.duckdb');
  const r = spawnSync(process.execPath, [BIN, 'ingest', dir, '--db', db, '-q'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.trim().split('\n');
  const skipped = lines.filter((l) => l.startsWith('iolens: skipped '));
  assert.equal(skipped.length, 50);
  for (const l of skipped) assert.match(l, /^iolens: skipped .*junk-\d\d\.darshan: not a Darshan log \(no Darshan version string at the start of the file; found "not a lo"\)$/);
  assert.ok(lines.includes(`iolens: … and 3 more skipped: iolens query --db ${db} "SELECT path, error FROM ingest_errors"`), r.stderr);
  // the Recorder trace's files, and a DFTracer file, given where a log is expected
  const recorder = join(SHARED, 'traces', 'recorder', 'flash_sedov3d_hdf5-ranks0-3');
  const rep = spawnSync(process.execPath, [BIN, 'report', join(recorder, '0.ts')], { encoding: 'utf8' });
  assert.equal(rep.status, 2);
  assert.ok(rep.stderr.trim().endsWith(`; it is a file of the Recorder trace in ${recorder}: run iolens trace ${recorder}`), rep.stderr);
  const pfw = join(dir, 'cm1.pfw.gz');
  const dft = join(SHARED, 'traces', 'dftracer', 'cm1_1_48_20240926');
  writeFileSync(pfw, readFileSync(join(dft, readdirSync(dft).find((f) => f.endsWith('.pfw.gz'))!)));
  const parse = spawnSync(process.execPath, [BIN, 'parse', pfw], { encoding: 'utf8' });
  assert.equal(parse.status, 2);
  assert.ok(parse.stderr.trim().endsWith(`; it is a DFTracer trace: run iolens trace ${pfw}`), parse.stderr);
  // a file that is not a log beside a DFTracer file is not part of a trace (only a Recorder folder is one trace)
  const junk = spawnSync(process.execPath, [BIN, 'report', join(dir, 'junk-00.darshan')], { encoding: 'utf8' });
  assert.equal(junk.status, 2);
  assert.doesNotMatch(junk.stderr, /trace/);
});

test.after(() => rmSync(tmp, { recursive: true, force: true }));
