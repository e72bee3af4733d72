import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distFile } from '../util/package-root.js';

/**
 * The main thread's heap during an ingest, after a full collection at every commit, at its lowest: what the ingest
 * keeps for the whole run (a list of the walk, of the paths or hashes seen), without the batch in hand, which comes
 * and goes. Run in a process of its own (`--expose-gc`) so nothing else in the heap moves it.
 */
const PROBE = `
const [, , ingestUrl, dir, db] = process.argv;
const { ingest } = await import(ingestUrl);
let low = Infinity;
const sample = () => { globalThis.gc(); low = Math.min(low, process.memoryUsage().heapUsed); };
const stats = await ingest({ db, inputs: [dir], jobs: 1, batchRows: 250, report: false, onCommit: sample });
process.stdout.write(JSON.stringify({ low, errors: stats.errors, candidates: stats.candidates }));
`;

function lowHeap(work: string, files: number): { low: number; errors: number; candidates: number } {
  const dir = join(work, `logs-${files}`);
  // Files named like logs that are not logs: each costs the walk, a task and an error row, and little CPU.
  for (let i = 0; i < files; i++) {
    const sub = join(dir, String(i % 16));
    if (i < 16) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `job-${String(i).padStart(6, '0')}-with-a-path-of-some-length.darshan`), 'not a log');
  }
  const probe = join(work, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const r = spawnSync(process.execPath, ['--expose-gc', probe, distFile('store/ingest.js').href, dir, join(work, `s-${files}.duckdb`)], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { low: number; errors: number; candidates: number };
}

test('ingest keeps nothing per file while it runs: the main heap at 8,000 files is within 64 bytes a file of 1,000', { timeout: 600_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'iolens-ingest-mem-'));
  try {
    const small = lowHeap(work, 1000);
    const large = lowHeap(work, 8000);
    assert.deepEqual([small.errors, small.candidates, large.errors, large.candidates], [1000, 1000, 8000, 8000]);
    // Per file, a list of the walk, of the tasks or of the paths seen holds a path (~90 characters) and its object:
    // the build before this test kept 327 bytes a file here (2.3 MB over the 7,000 more files); this one 15.
    const perFile = (large.low - small.low) / (8000 - 1000);
    assert.ok(perFile < 64, `heap grew ${perFile.toFixed(1)} bytes a file (lowest ${small.low} and ${large.low} bytes)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
