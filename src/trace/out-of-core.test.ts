import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';

/**
 * `iolens trace` on a DXT log of 10^7 segments keeps memory that does not grow with the events: counts, not time
 * (BENCHMARKS.md, "Out of core", has the speeds). The log comes from the benchmarks' streaming generator (one DXT
 * record per file and rank: 64 files × 8 ranks), the CLI runs as a child process and reports its own peak RSS at
 * exit (`IOLENS_STATS_FILE`, `process.resourceUsage()`).
 *
 * Holding the events would cost at least their offset, size, start and end (4 × 8 bytes): 32 bytes × 10^7 =
 * 305 MiB on top of what the run needs anyway (Node, the bundle, the cube: ~100-200 MiB). Measured (2 cores, load
 * 1-6): ~200 MiB at 10^6 and at 10^7 segments. Bounds: 320 MiB in all, and under 96 MiB more than the same log
 * with 10^6 segments, where holding the other 9 × 10^6 events would add at least 275 MiB.
 */

const MiB = 2 ** 20;

function generate(out: string, events: number): void {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bench', 'trace-gen-dxt.mjs'), out, String(events), '64', '8'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** Peak RSS in bytes of `iolens trace <log>` (stdout dropped), and the events it read. */
function tracePeak(dir: string, log: string): { rss: number; events: number } {
  const stats = join(dir, `${log.split('/').pop()}.usage.json`);
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', '--json', log], {
    env: { ...process.env, IOLENS_STATS_FILE: stats },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, r.stderr);
  const usage = JSON.parse(readFileSync(stats, 'utf8')) as { maxRSS: number };
  return { rss: usage.maxRSS * 1024, events: (JSON.parse(r.stdout) as { input: { events: number } }).input.events };
}

test('iolens trace on 10^7 DXT segments: peak memory far below holding the events, and flat from 10^6', { timeout: 240_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-out-of-core-'));
  try {
    const small = join(dir, 'dxt-1e6.darshan');
    const big = join(dir, 'dxt-1e7.darshan');
    generate(small, 1_000_000);
    const a = tracePeak(dir, small);
    rmSync(small);
    generate(big, 10_000_000);
    const b = tracePeak(dir, big);
    t.diagnostic(`peak RSS: ${(a.rss / MiB).toFixed(0)} MiB at 10^6 segments, ${(b.rss / MiB).toFixed(0)} MiB at 10^7`);
    assert.equal(a.events, 1_000_000);
    assert.equal(b.events, 10_000_000);
    assert.ok(b.rss < 320 * MiB, `peak RSS ${(b.rss / MiB).toFixed(0)} MiB at 10^7 segments (bound 320 MiB)`);
    assert.ok(b.rss - a.rss < 96 * MiB, `peak RSS grew ${((b.rss - a.rss) / MiB).toFixed(0)} MiB from 10^6 to 10^7 segments (bound 96 MiB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
