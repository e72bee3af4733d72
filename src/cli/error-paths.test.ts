import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
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

test.after(() => rmSync(tmp, { recursive: true, force: true }));
