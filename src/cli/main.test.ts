import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { oneLine } from './errors.js';
import { REPO_ROOT } from '../testing/corpus.js';

test('error messages are one line, control characters shown escaped', () => {
  assert.equal(oneLine('bad JSON ("# IOLens\n\n...")'), 'bad JSON ("# IOLens ...")');
  assert.equal(oneLine('name\x1b[31m\x07'), 'name\\x1b[31m\\x07');
});

test('a --config file that is not JSON gives one error line and exit 2', () => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', '--config', join(REPO_ROOT, 'README.md'), join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan')], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, /^iolens: .*README\.md: not valid JSON/);
});

test('report --export-dir never overwrites an existing file without --force', async () => {
  const { mkdtempSync, writeFileSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'iolens-export-'));
  const mine = join(dir, 'ior-hdf5-indep-small-write-4k.json');
  writeFileSync(mine, 'my notes');
  const run = (...extra: string[]) =>
    spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', '--json', '--export-dir', dir, ...extra, join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan')], { encoding: 'utf8' });
  const r = run();
  assert.equal(r.status, 2);
  assert.match(r.stderr, /already exists; not overwriting \(use --force\)/);
  assert.equal(readFileSync(mine, 'utf8'), 'my notes');
  assert.equal(run('--force').status, 0);
  assert.equal(JSON.parse(readFileSync(mine, 'utf8')).schemaVersion, 3);
});

test('report on several logs: one CSV header, a row per log, JSON lines; a bad log is reported and the rest still run', () => {
  const gen = join(REPO_ROOT, '..', 'shared', 'darshan-logs', 'generated');
  const logs = ['ior-seq-write-1m.darshan', 'ior-random-read-1k.darshan', 'iopat-rank0-shared-write.darshan'].map((f) => join(gen, f));
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', ...args], { encoding: 'utf8' });
  const csv = cli('--csv', ...logs);
  assert.equal(csv.status, 0);
  const rows = csv.stdout.trim().split('\n');
  assert.equal(rows.length, 4);
  assert.match(rows[0], /^file,JOB,S01,.*,M10,D01,.*,D22$/);
  assert.equal(rows.filter((r) => r.startsWith('file,')).length, 1);
  assert.equal(rows[1].split(',')[0], logs[0]);
  const bad = cli('--json', logs[0], join(REPO_ROOT, 'README.md'), logs[1]);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  assert.match(bad.stderr, /README\.md: not a Darshan log/);
  const lines = bad.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((r) => r.job.logName), ['ior-seq-write-1m.darshan', 'ior-random-read-1k.darshan']);
});
