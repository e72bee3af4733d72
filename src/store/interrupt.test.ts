import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { makeArchive } from './synth-archive.js';
import { openStore } from './db.js';

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');

async function jobs(db: string): Promise<number> {
  const s = await openStore(db, { readOnly: true });
  try {
    return Number((await s.con.runAndReadAll('SELECT count(*) FROM jobs')).getRows()[0][0]);
  } finally {
    s.close();
  }
}

test('ingest in a batch job prints a progress line periodically, and leaves no temporary folder behind', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-progress-'));
  try {
    makeArchive(join(dir, 'arch'), { logs: 150, seed: 3 });
    const db = join(dir, 'p.duckdb');
    const r = spawnSync(process.execPath, [BIN, 'ingest', join(dir, 'arch'), '--db', db, '-j', '1'], {
      encoding: 'utf8',
      env: { ...process.env, IOLENS_PROGRESS_SECONDS: '0.001' },
    });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    const progress = lines.filter((l) => /^iolens: ingest \d+\/150 logs \(\d+\.\d%\), \d+ logs\/s, [\d.]+ MB\/s, ETA \S+$/.test(l));
    assert.ok(progress.length >= 2, r.stderr);
    assert.ok(!r.stderr.includes('\r') && !r.stderr.includes('\x1b'), 'no terminal control codes when not on a terminal');
    assert.match(lines[lines.length - 1], /: 150 new jobs/);
    assert.deepEqual(readdirSync(dir).sort(), ['arch', 'p.duckdb']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Ctrl-C during ingest: the logs in progress are committed, it says what was saved, temporary files go, the next ingest resumes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-sigint-'));
  try {
    makeArchive(join(dir, 'arch'), { logs: 600, seed: 5 });
    const db = join(dir, 's.duckdb');
    const child = spawn(process.execPath, [BIN, 'ingest', join(dir, 'arch'), '--db', db, '-j', '1'], {
      env: { ...process.env, IOLENS_INGEST_BATCH: '20', IOLENS_INGEST_TRACE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (!sent && /committed/.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
    assert.equal(code, 130, stderr);
    const m = /interrupted: (\d+) new jobs, 0 duplicates and 0 errors saved in .*; the next ingest takes the rest/.exec(stderr);
    assert.ok(m, stderr);
    const saved = Number(m[1]);
    assert.ok(saved > 0 && saved < 600, stderr);
    assert.equal(await jobs(db), saved);
    assert.equal(existsSync(`${db}.ingest-tmp`), false);
    const again = spawnSync(process.execPath, [BIN, 'ingest', join(dir, 'arch'), '--db', db, '-q'], { encoding: 'utf8' });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(await jobs(db), 600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('trace on a long input says how far it has read (stderr), and stdout stays the report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-trace-progress-'));
  try {
    const log = join(dir, 'big.darshan');
    const s = spawnSync(process.execPath, [BIN, 'synth', log, '--dxt-segments', '400000'], { encoding: 'utf8' });
    assert.equal(s.status, 0, s.stderr);
    const r = spawnSync(process.execPath, [BIN, 'trace', log, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, IOLENS_PROGRESS_SECONDS: '0.001' } });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.ok(lines.length >= 1 && lines.every((l) => /^iolens: reading the trace: [\d,]+ events \([\d,]+ events\/s\)$/.test(l)), r.stderr);
    assert.equal(JSON.parse(r.stdout).input.events, 400000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
