import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { COMMANDS } from './index.js';
import { REPO_ROOT } from '../../testing/corpus.js';

const here = dirname(fileURLToPath(import.meta.url));

test('every command file is registered under its own name, and every registered command has a file', async () => {
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.js') && f !== 'index.js' && f !== 'command.js' && !f.endsWith('.test.js'))
    .map((f) => f.slice(0, -3))
    .sort();
  assert.deepEqual(Object.keys(COMMANDS).sort(), files);
  for (const [name, load] of Object.entries(COMMANDS)) assert.equal((await load()).default.name, name);
});

test('iolens --help lists every command and each command has --help and --version', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [`${REPO_ROOT}/bin/iolens.js`, ...args], { encoding: 'utf8' });
  const help = cli(['--help']);
  assert.equal(help.status, 0);
  for (const name of Object.keys(COMMANDS)) {
    assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'), `--help lists ${name}`);
    const sub = cli([name, '--help']);
    assert.equal(sub.status, 0, `${name} --help`);
    assert.match(sub.stdout, new RegExp(`^Usage: iolens ${name} `));
    const ver = cli([name, '--version']);
    assert.equal(ver.stdout.trim(), cli(['--version']).stdout.trim(), `${name} --version`);
  }
  const bad = cli(['no-such-command']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown command 'no-such-command'/);
});
