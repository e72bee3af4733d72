import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, SHARED } from '../testing/corpus.js';

// bin/iolens.cjs runs a command from its bundle with a V8 code cache (npm run build makes both), and falls back to
// the compiled tree. These tests run the built package as a user would.

const LAUNCHER = join(REPO_ROOT, 'bin', 'iolens.cjs');
const SAMPLE = join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan');
const BUNDLES = join(REPO_ROOT, 'dist', 'bundle');
const run = (launcher: string, args: string[]) => spawnSync(process.execPath, [launcher, ...args], { encoding: 'utf8' });

interface Launcher {
  compile(name: string, useCache?: boolean): { cache: 'used' | 'rejected' | 'none'; main: (argv: string[]) => Promise<number> } | null;
  bundleName(argv: string[]): string;
}
const launcher = createRequire(import.meta.url)(LAUNCHER) as Launcher;

test('every command has a bundle and a code cache that this Node accepts', () => {
  const bundles = readdirSync(BUNDLES).filter((f) => f.endsWith('.cjs'));
  assert.ok(bundles.includes('iolens.cjs') && bundles.includes('report.cjs') && bundles.includes('trace.cjs'), bundles.join(' '));
  for (const f of bundles) {
    const name = f.slice(0, -4);
    assert.ok(existsSync(join(BUNDLES, `${f}.v8cache`)), `${f}.v8cache`);
    const b = launcher.compile(name);
    assert.ok(b, name);
    assert.equal(b.cache, 'used', `${name}: V8 rejected the code cache`);
    assert.equal(typeof b.main, 'function');
  }
});

test('every bundle is ASCII (the launcher reads bundles as latin1)', () => {
  const vendor = join(BUNDLES, 'vendor');
  const files = [...readdirSync(BUNDLES).map((f) => join(BUNDLES, f)), ...readdirSync(vendor).map((f) => join(vendor, f))].filter((f) => f.endsWith('.cjs'));
  assert.ok(files.length > 10, files.join(' '));
  for (const f of files) {
    const bytes = readFileSync(f);
    const at = bytes.findIndex((b) => b > 127);
    assert.equal(at, -1, `${f}: byte ${at} is not ASCII`);
  }
});

test('output to a file is complete and the exit status kept when the launcher exits as soon as nothing is pending', () => {
  // To a pipe (spawnSync's default) the stdout handle stays active and Node exits as usual; to a file nothing is
  // pending once the command returns, and the launcher calls process.exit itself.
  const dir = mkdtempSync(join(tmpdir(), 'iolens-exit-'));
  try {
    // a preload that notes in a file whether the launcher called process.exit itself
    const hook = join(dir, 'hook.cjs');
    const marker = join(dir, 'early');
    writeFileSync(hook, `const e = process.exit; process.exit = function (...a) { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'early'); return e.apply(process, a); };`);
    const db = join(dir, 'jobs.duckdb');
    assert.equal(run(LAUNCHER, ['ingest', '--db', db, SAMPLE]).status, 0);
    // [arguments, exit status, whether the launcher exits early when output goes to a file (null: not asserted)]
    const cases: [string[], number, boolean | null][] = [
      [['parse', SAMPLE], 0, true],
      [['report', '--json', SAMPLE, SAMPLE], 0, true],
      [['report', SAMPLE, join(REPO_ROOT, 'README.md')], 2, null],
      [['report', '--fail-on', 'warn', SAMPLE], 3, null],
      // a job-store command always leaves its exit to Node (DuckDB's clean-up runs there)
      [['query', '--db', db, 'select count(*) from jobs'], 0, false],
    ];
    for (const [args, status, early] of cases) {
      const piped = run(LAUNCHER, args);
      const file = join(dir, 'out.txt');
      const fd = openSync(file, 'w');
      rmSync(marker, { force: true });
      const toFile = spawnSync(process.execPath, ['--require', hook, LAUNCHER, ...args], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      closeSync(fd);
      assert.equal(piped.status, status, `${args.join(' ')} (pipe): ${piped.stderr}`);
      assert.equal(toFile.status, status, `${args.join(' ')} (file): ${toFile.stderr}`);
      assert.equal(readFileSync(file, 'utf8'), piped.stdout, args.join(' '));
      assert.equal(toFile.stderr, piped.stderr, args.join(' '));
      if (early !== null) assert.equal(existsSync(marker), early, `${args.join(' ')}: early exit`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a command runs from its own bundle; anything else from the bundle with every command', () => {
  assert.equal(launcher.bundleName(['report', 'x.darshan']), 'report');
  assert.equal(launcher.bundleName(['--json', 'parse', 'x']), 'parse');
  assert.equal(launcher.bundleName(['--help']), 'iolens');
  assert.equal(launcher.bundleName(['no-such-command']), 'iolens');
  assert.equal(launcher.bundleName(['../report']), 'iolens');
  assert.equal(launcher.bundleName([]), 'iolens');
});

test('the bundles print what the compiled tree prints, byte for byte, exit status included', () => {
  // A copy of the launcher beside a dist/ that has the compiled tree but no bundles: the fallback.
  const dir = mkdtempSync(join(tmpdir(), 'iolens-launcher-'));
  try {
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist'));
    cpSync(LAUNCHER, join(dir, 'bin', 'iolens.cjs'));
    cpSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    for (const d of readdirSync(join(REPO_ROOT, 'dist'))) if (d !== 'bundle') symlinkSync(join(REPO_ROOT, 'dist', d), join(dir, 'dist', d));
    const tree = join(dir, 'bin', 'iolens.cjs');
    const cases = [
      ['--version'],
      ['--help'],
      ['report', SAMPLE],
      ['report', '--json', SAMPLE],
      ['report', '--drishti', '--csv', SAMPLE],
      ['parse', SAMPLE],
      ['parse', '--perf', SAMPLE],
      ['list-checks'],
      ['report', join(REPO_ROOT, 'README.md')],
      ['no-such-command'],
    ];
    for (const args of cases) {
      const a = run(LAUNCHER, args);
      const b = run(tree, args);
      assert.equal(a.status, b.status, args.join(' '));
      assert.equal(a.stdout, b.stdout, args.join(' '));
      assert.equal(a.stderr, b.stderr, args.join(' '));
    }
    assert.match(run(LAUNCHER, ['--version']).stdout, /^\d+\.\d+\.\d+\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bundle older than the compiled tree is not used; a code cache older than its bundle is not read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-launcher-'));
  try {
    mkdirSync(join(dir, 'bin'));
    cpSync(LAUNCHER, join(dir, 'bin', 'iolens.cjs'));
    cpSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    mkdirSync(join(dir, 'dist'));
    for (const d of readdirSync(join(REPO_ROOT, 'dist'))) if (d !== 'bundle' && d !== 'cli') symlinkSync(join(REPO_ROOT, 'dist', d), join(dir, 'dist', d));
    cpSync(join(REPO_ROOT, 'dist', 'cli'), join(dir, 'dist', 'cli'), { recursive: true, preserveTimestamps: true });
    cpSync(BUNDLES, join(dir, 'dist', 'bundle'), { recursive: true, preserveTimestamps: true });
    const copy = createRequire(import.meta.url)(join(dir, 'bin', 'iolens.cjs')) as Launcher;
    const before = (file: string) => new Date(statSync(file).mtimeMs - 10_000);
    assert.equal(copy.compile('parse')?.cache, 'used');
    assert.equal(copy.compile('parse', false)?.cache, 'none');
    const bundle = join(dir, 'dist', 'bundle', 'parse.cjs');
    utimesSync(`${bundle}.v8cache`, before(bundle), before(bundle));
    assert.equal(copy.compile('parse')?.cache, 'none', 'a cache older than its bundle');
    const tree = join(dir, 'dist', 'cli', 'main.js');
    utimesSync(bundle, before(tree), before(tree));
    assert.equal(copy.compile('parse'), null, 'a bundle older than dist/cli/main.js');
    const r = run(join(dir, 'bin', 'iolens.cjs'), ['parse', SAMPLE]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, run(LAUNCHER, ['parse', SAMPLE]).stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the optional libraries (zod, yaml, hyparquet) are loaded only by the runs that use them', () => {
  // A preload script records every bundled library the launcher's bundles require, and prints the list at exit.
  const dir = mkdtempSync(join(tmpdir(), 'iolens-vendor-'));
  try {
    const hook = join(dir, 'hook.cjs');
    const rules = join(dir, 'rules.yaml');
    writeFileSync(
      hook,
      `const M = require('node:module'); const seen = new Set(); const load = M._load;
       M._load = function (req, ...rest) { const m = /vendor\\/([a-z-]+)\\.cjs$/.exec(req); if (m) seen.add(m[1]); return load.call(this, req, ...rest); };
       process.on('exit', () => process.stderr.write('VENDOR ' + [...seen].sort().join(',') + '\\n'));`,
    );
    writeFileSync(rules, 'rules: []\n');
    const trace = join(SHARED, 'traces', 'dftracer', 'legacy-string-fields', 'dftracer-test.pfw');
    const vendors = (args: string[]) => {
      const r = spawnSync(process.execPath, ['--require', hook, LAUNCHER, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      return /VENDOR (.*)/.exec(r.stderr)![1];
    };
    assert.equal(vendors(['report', SAMPLE]), '');
    assert.equal(vendors(['parse', SAMPLE]), '');
    assert.equal(vendors(['trace', trace]), '');
    // the hook sees them when a run needs them
    assert.equal(vendors(['trace', trace, '--rules', rules]), 'yaml,zod');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
