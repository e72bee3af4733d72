// Shared helpers for the benchmarks in bench/: machine description, repeated runs, medians, whole-process stats.
import { spawnSync } from 'node:child_process';
import { cpus, totalmem, tmpdir } from 'node:os';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = resolve(ROOT, '..', 'shared');
export const OUT = join(ROOT, 'bench', 'out');

export function machine() {
  const c = cpus();
  return `${c.length} × ${c[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}`;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs `node bin/iolens.js ...args` with stdout to /dev/null; returns wall seconds, peak RSS (MiB), CPU seconds (all threads), status. */
export function runCli(args, { stdout = '/dev/null' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-bench-'));
  const stats = join(dir, 'stats.json');
  const fd = openSync(stdout, 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'iolens.js'), ...args], {
    stdio: ['ignore', fd, 'pipe'],
    env: { ...process.env, IOLENS_STATS_FILE: stats },
    maxBuffer: 1 << 26,
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(fd);
  let rss = NaN;
  let cpu = NaN;
  try {
    const u = JSON.parse(readFileSync(stats, 'utf8'));
    rss = u.maxRSS / 1024;
    cpu = (u.userCPUTime + u.systemCPUTime) / 1e6;
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  return { wall, rssMiB: rss, cpuSeconds: cpu, status: r.status, stderr: String(r.stderr) };
}

/** Runs a script `node file ...args` that prints one JSON line; returns that object plus wall time. */
export function runScript(file, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [file, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${file} failed: ${r.stderr}`);
  return { ...JSON.parse(r.stdout.trim().split('\n').pop()), wall };
}

export const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
