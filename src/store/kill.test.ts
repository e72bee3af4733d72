import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { openStore } from './db.js';
import { ingest } from './ingest.js';
import { makeArchive } from './synth-archive.js';

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');

/** Runs `iolens ingest` as a child and SIGKILLs it once it has printed `commits` commit lines. */
function ingestAndKill(arch: string, db: string, commits: number): Promise<{ signal: NodeJS.Signals | null; seen: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'ingest', arch, '--db', db, '--quiet', '-j', '2'], {
      env: { ...process.env, IOLENS_INGEST_BATCH: '100', IOLENS_INGEST_TRACE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = 0;
    let buf = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith('committed ')) {
          seen++;
          if (seen === commits) child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ signal, seen }));
  });
}

async function counts(db: string): Promise<{ jobs: number; sources: number; errors: number; distinct: number }> {
  const s = await openStore(db, { readOnly: true });
  try {
    const r = (await s.con.runAndReadAll(
      'SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM sources), (SELECT count(*) FROM ingest_errors), (SELECT count(DISTINCT hash) FROM jobs)',
    )).getRows()[0].map(Number);
    return { jobs: r[0], sources: r[1], errors: r[2], distinct: r[3] };
  } finally {
    s.close();
  }
}

test('kill -9 of a real ingest, twice, then resume: every log exactly once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-kill-'));
  try {
    const arch = join(dir, 'archive');
    const info = makeArchive(arch, { logs: 2500, seed: 42, duplicateEvery: 40, junkEvery: 100 });
    assert.deepEqual([info.logs, info.duplicates, info.junk, info.files], [2500, 62, 25, 2587]);
    const db = join(dir, 'k.duckdb');

    const first = await ingestAndKill(arch, db, 3);
    assert.equal(first.signal, 'SIGKILL');
    const a = await counts(db);
    assert.ok(a.sources >= 300 && a.sources < info.files, `after first kill: ${JSON.stringify(a)}`);
    assert.equal(a.jobs, a.distinct);

    const second = await ingestAndKill(arch, db, 4);
    assert.equal(second.signal, 'SIGKILL');
    const b = await counts(db);
    assert.ok(b.sources >= a.sources + 400 && b.sources < info.files, `after second kill: ${JSON.stringify(b)}`);

    const last = await ingest({ db, inputs: [arch], jobs: 2 });
    assert.equal(last.skipped, b.sources);
    const c = await counts(db);
    assert.deepEqual(c, { jobs: 2500, sources: 2587, errors: 25, distinct: 2500 });
    const s = await openStore(db, { readOnly: true });
    try {
      const st = (await s.con.runAndReadAll(`SELECT status, count(*) FROM sources GROUP BY status ORDER BY status`)).getRows();
      assert.deepEqual(st.map((r) => [r[0], Number(r[1])]), [['duplicate', 62], ['error', 25], ['ingested', 2500]]);
    } finally {
      s.close();
    }
    const again = await ingest({ db, inputs: [arch], jobs: 2 });
    assert.deepEqual([again.inserted, again.duplicates, again.errors, again.skipped], [0, 0, 0, 2587]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
