import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';
import { CHECKS } from '../checks/registry.js';
import { DRISHTI_CSV_CODES } from '../contract/index.js';

const GEN = join(SHARED, 'darshan-logs', 'generated');
const SAMPLE = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');
const cli = (args: string[], input?: Buffer | string) =>
  spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', ...args], { encoding: 'utf8', ...(input !== undefined ? { input } : {}) });

/** Default-mode CSV columns, derived from the registry: Drishti's 32 codes, then the default-mode-only checks. */
const DEFAULT_CODES = [...DRISHTI_CSV_CODES, ...CHECKS.filter((c) => !(DRISHTI_CSV_CODES as readonly string[]).includes(c.meta.code) && (!c.meta.modes || c.meta.modes.includes('default'))).map((c) => c.meta.code)];

test('batch CSV: the header comes first even when the first log is bad; a file column; a column per check; levels with --csv-levels', () => {
  const logs = ['iopat-rank0-shared-write.darshan', 'ior-random-read-1k.darshan'].map((f) => join(GEN, f));
  const r = cli(['--csv', join(REPO_ROOT, 'README.md'), ...logs]);
  assert.equal(r.status, 2);
  const rows = r.stdout.trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(rows[0], ['file', 'JOB', ...DEFAULT_CODES]);
  assert.deepEqual(rows.slice(1).map((x) => x[0]), logs);
  assert.ok(rows.slice(1).every((x) => x.length === rows[0].length && x.slice(2).every((v) => v === 'True' || v === 'False')));
  const lv = cli(['--csv', '--csv-levels', ...logs]);
  const lrows = lv.stdout.trim().split('\n').map((l) => l.split(','));
  // Each cell is the level of that check's finding in the JSON report of the same log.
  for (const [i, log] of logs.entries()) {
    const rep = JSON.parse(cli(['--json', log]).stdout) as { insights: { code: string; level: string }[] };
    const want = DEFAULT_CODES.map((c) => rep.insights.find((x) => x.code === c)?.level ?? '');
    assert.deepEqual(lrows[i + 1].slice(2), want, log);
  }
  assert.ok(lrows.slice(1).some((x) => x.slice(2).includes('HIGH')), 'a D-check HIGH shows in the CSV');
  const dr = cli(['--csv', '--drishti', ...logs]);
  assert.deepEqual(dr.stdout.split('\n')[0].split(','), ['JOB', ...DRISHTI_CSV_CODES]);
});

test('inputs: - reads standard input, directories and quoted globs expand, --from lists paths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-inputs-'));
  try {
    const stdin = cli(['--json', '-'], readFileSync(SAMPLE));
    assert.equal(stdin.status, 0, stdin.stderr);
    assert.equal(JSON.parse(stdin.stdout).job.logName, 'stdin');
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    copyFileSync(join(GEN, 'ior-seq-write-1m.darshan'), join(dir, 'a', 'one.darshan'));
    copyFileSync(join(GEN, 'ior-random-read-1k.darshan'), join(dir, 'a', 'b', 'two.darshan'));
    writeFileSync(join(dir, 'a', 'notes.txt'), 'not a log');
    const names = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l).job.logName as string);
    assert.deepEqual(names(cli(['--json', join(dir, 'a')]).stdout), ['one.darshan', 'two.darshan']);
    assert.deepEqual(names(cli(['--json', join(dir, 'a', '**', '*.darshan')]).stdout), ['one.darshan', 'two.darshan']);
    writeFileSync(join(dir, 'list.txt'), `# my logs\n${join(dir, 'a', 'one.darshan')}\n\n${SAMPLE}\n`);
    assert.deepEqual(names(cli(['--json', '--from', join(dir, 'list.txt')]).stdout), ['one.darshan', 'ior-hdf5-indep-small-write-4k.darshan']);
    assert.equal(JSON.parse(cli(['--json', '--from', '-'], `${SAMPLE}\n`).stdout).job.logName, 'ior-hdf5-indep-small-write-4k.darshan');
    const none = cli(['--from', join(dir, 'a', 'notes.txt'), '--json']);
    assert.equal(none.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--export-dir: refuses to run without a format, lists every file it wrote', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-export-'));
  try {
    const none = cli(['--export-dir', dir, SAMPLE]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /^iolens: --export-dir needs the formats to write/);
    assert.deepEqual(readdirSync(dir), []);
    const r = cli(['--export-dir', dir, '--json', '--markdown', SAMPLE]);
    assert.equal(r.status, 0, r.stderr);
    const written = r.stderr.trim().split('\n');
    assert.deepEqual(written, [`iolens: wrote ${join(dir, 'ior-hdf5-indep-small-write-4k.json')}`, `iolens: wrote ${join(dir, 'ior-hdf5-indep-small-write-4k.md')}`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad settings are refused in one line: unknown check in --config, hints that are not key=value, commander errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-config-'));
  try {
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ checks: { X99: 'off' } }));
    const c = cli(['--config', join(dir, 'c.json'), SAMPLE]);
    assert.equal(c.status, 2);
    assert.equal(c.stderr, "iolens: config: unknown check 'X99' (see iolens list-checks)\n");
    const h = cli(['--hints', 'cb_nodes=4;garbage', SAMPLE]);
    assert.equal(h.status, 2);
    assert.match(h.stderr, /^iolens: hints: 'garbage' is not key=value/);
    const u = cli(['--no-such-flag', SAMPLE]);
    assert.equal(u.status, 2);
    assert.equal(u.stderr, "iolens: unknown option '--no-such-flag'\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('batch error lines escape control characters of file names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-esc-'));
  try {
    const evil = join(dir, 'bad\x1b[2J\x07.darshan');
    writeFileSync(evil, 'not a log');
    const r = cli(['--csv', evil, SAMPLE]);
    assert.equal(r.status, 2);
    assert.ok(!/[\x00-\x1f]/.test(r.stderr.replace(/\n$/, '')), JSON.stringify(r.stderr));
    assert.match(r.stderr, /bad\\x1b\[2J\\x07\.darshan/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
