import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs a Python script with Debian's /usr/bin/python3, where the test oracles (python3-sklearn, python3-xgboost,
 * installed by .ci/run) live, in a fresh temporary directory passed as its first argument. Returns stdout.
 */
export function runPython(script: string, prepare?: (dir: string) => void): { stdout: string; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-oracle-'));
  prepare?.(dir);
  // One OpenMP thread: the oracles' results do not depend on it, and idle OpenMP workers spin on a shared machine.
  const env = { ...process.env, OMP_NUM_THREADS: '1' };
  const r = spawnSync('/usr/bin/python3', ['-c', script, dir], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 120_000, env });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`python oracle failed (${r.status}): ${r.stderr || r.error}`);
  }
  return { stdout: r.stdout, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Whether /usr/bin/python3 can import `module`. Oracle tests fail when it cannot (CI installs the packages), unless
 * IOLENS_SKIP_ORACLES=1 asks to skip them on a machine without them.
 */
export function oracleAvailable(module: string): boolean | 'skip' {
  const r = spawnSync('/usr/bin/python3', ['-c', `import ${module}`], { encoding: 'utf8' });
  if (r.status === 0) return true;
  return process.env.IOLENS_SKIP_ORACLES === '1' ? 'skip' : false;
}

/** A little-endian float64 file written by numpy's tofile. */
export function readF64(file: string): Float64Array {
  const b = readFileSync(file);
  return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
