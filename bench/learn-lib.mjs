// Helpers shared by the learning benchmarks.
import { spawnSync } from 'node:child_process';

/** CPU seconds (user + system) of this process, all threads. */
export function cpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

export function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs a Python script with Debian's interpreter (the oracles live there) and returns its stdout. */
export function python(script, args = [], env = {}) {
  const r = spawnSync('/usr/bin/python3', ['-c', script, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`python failed: ${r.stderr}`);
  return r.stdout;
}

export function sklearnAvailable() {
  const r = spawnSync('/usr/bin/python3', ['-c', 'import sklearn'], { encoding: 'utf8' });
  return r.status === 0;
}
