import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../testing/corpus.js';
import { OFF_THREAD_MIN_BYTES } from '../inflate-thread.js';
import { DarshanLog } from '../log.js';
import { synthesizeLog } from '../synth.js';
import { writeLog } from '../writer.js';
import { printDxtText } from './dxt-text.js';
import { StringOut } from './text-out.js';

const CLI = join(REPO_ROOT, 'bin', 'iolens.js');

test('a DXT region large enough to stream prints, through the CLI, the bytes of the whole-region printer; trace reads it the same on one thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dxt-stream-'));
  try {
    const path = join(dir, 'big-dxt.darshan');
    writeFileSync(path, writeLog(synthesizeLog({ seed: 5, posixFiles: 4, nprocs: 4, dxtSegments: 300_000 })));
    // large enough for a thread of its own: inflated off the main thread, printed batch by batch
    assert.ok(DarshanLog.open(path).header.moduleRegions[10].len >= OFF_THREAD_MIN_BYTES);
    const whole = new StringOut();
    await printDxtText(DarshanLog.open(path), whole, () => {});
    const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'latin1', maxBuffer: 256 << 20 });
    const parsed = run(['parse', '--dxt', path]);
    assert.equal(parsed.status, 0, parsed.stderr);
    assert.equal(parsed.stderr, '');
    assert.equal(parsed.stdout, whole.toString());
    assert.equal(parsed.stdout.split('\n').filter((l) => l.startsWith(' X_POSIX')).length, 300_000);
    const auto = run(['trace', path, '--json']);
    const one = run(['trace', path, '--json', '--threads', '1']);
    assert.equal(auto.status, 0, auto.stderr);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(auto.stdout, one.stdout);
    assert.equal(JSON.parse(auto.stdout).input.events, 300_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
