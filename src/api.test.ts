import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './testing/corpus.js';

/** The code block after `heading` … the first fenced block of docs/api.md, and the output block after it. */
function docBlocks(): { code: string; output: string } {
  const md = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
  const blocks = [...md.matchAll(/```(\w*)\n([\s\S]*?)```/g)];
  const code = blocks.find((b) => b[1] === 'js');
  const output = blocks.find((b, i) => b[1] === '' && i > blocks.indexOf(code!));
  assert.ok(code && output, 'docs/api.md has a js example and its output');
  return { code: code[2], output: output[2] };
}

test('a fresh project that installs IOLens runs the docs/api.md example and gets the documented output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-api-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'uses-iolens', version: '1.0.0', type: 'module', private: true }));
    const npm = spawnSync('npm', ['install', REPO_ROOT, '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
    assert.equal(npm.status, 0, npm.stderr);
    const { code, output } = docBlocks();
    writeFileSync(join(dir, 'example.mjs'), code);
    const run = spawnSync(process.execPath, ['example.mjs', join(REPO_ROOT, 'samples', 'ior-hdf5-indep-small-write-4k.darshan')], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
    assert.equal(run.stdout, output);
    // A bad input is one IOLensError line, not a stack trace.
    const bad = spawnSync(process.execPath, ['example.mjs', join(REPO_ROOT, 'README.md')], { cwd: dir, encoding: 'utf8' });
    assert.equal(bad.status, 0);
    assert.match(bad.stderr, /^\S*README\.md: .+\n$/);
    // The store entry, the types, and nothing else of the package's insides.
    const probe = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const s = await import('iolens/store'); console.log(typeof s.ingest, typeof s.JOB_COLUMNS.length); try { await import('iolens/dist/testing/corpus.js'); console.log('reachable'); } catch (e) { console.log(e.code); }"],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(probe.stdout, 'function number\nERR_PACKAGE_PATH_NOT_EXPORTED\n', probe.stderr);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { types: string; exports: Record<string, { types: string }> };
    assert.ok(existsSync(join(REPO_ROOT, pkg.types)));
    assert.ok(existsSync(join(REPO_ROOT, pkg.exports['./store'].types)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the package ships no test files or test helpers', () => {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('bin/iolens.js'));
  assert.deepEqual(files.filter((f) => /\.test\.|\/testing\/|^dist\/fuzz\//.test(f)), []);
});
