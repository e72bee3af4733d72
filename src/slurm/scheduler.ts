import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { files, SlurmError } from './plan.js';

/**
 * The Slurm commands IOLens uses — sbatch (through the work folder's submit.sh), squeue, sacct and scancel — run
 * with a time limit, their failures turned into one-line `SlurmError`s.
 */

const TIMEOUT_MS = 120_000;

function run(cmd: string, args: readonly string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SlurmError(`${cmd} not found: run this on a node with the Slurm client commands (or put them on PATH)`);
    if (code === 'ETIMEDOUT') throw new SlurmError(`${cmd} did not answer within ${TIMEOUT_MS / 1000} s`);
    throw new SlurmError(`${cmd}: ${r.error.message}`);
  }
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

function lastLine(s: string): string {
  const lines = s.trim().split(/\r?\n/);
  return lines[lines.length - 1] ?? '';
}

/** A submitted round: the array job (empty when only a merge job was submitted) and its merge job. */
export interface Round {
  readonly round: number;
  readonly array: string;
  readonly tasks: string;
  readonly finish: string;
  readonly submitted: number;
}

/** Submits round `round` of `tasks` (array syntax, or "none") with the work folder's submit.sh. */
export function submitRound(workdir: string, round: number, tasks: string): Round {
  const r = run('bash', [files.submit(workdir), String(round), tasks]);
  if (r.status !== 0) throw new SlurmError(`submitting round ${round} failed: ${lastLine(r.stderr) || lastLine(r.stdout) || `status ${r.status}`}`);
  try {
    return JSON.parse(readFileSync(`${workdir}/rounds/${round}.json`, 'utf8')) as Round;
  } catch {
    throw new SlurmError(`submitting round ${round}: submit.sh did not record rounds/${round}.json`);
  }
}

/** One line of squeue: a job, or one task of an array job. */
export interface QueueEntry {
  /** The array job id (the job id for plain jobs). */
  readonly arrayJob: string;
  /** The task index, or null for a plain job (or a pending array's unexpanded remainder). */
  readonly task: number | null;
  /** The job id of this task (the array job id while it is pending). */
  readonly job: string;
  readonly state: string;
  readonly node: string;
}

/**
 * The current user's jobs as squeue lists them, finished ones included while slurmctld still remembers them
 * (MinJobAge). Array tasks are listed one per line.
 */
export function queue(): QueueEntry[] {
  const r = run('squeue', ['--me', '--noheader', '--array', '--states=all', '--format=%F|%K|%A|%T|%N']);
  if (r.status !== 0) throw new SlurmError(`squeue failed: ${lastLine(r.stderr) || `status ${r.status}`}`);
  const out: QueueEntry[] = [];
  for (const line of r.stdout.split('\n')) {
    const f = line.trim().split('|');
    if (f.length < 5) continue;
    const t = /^\d+$/.test(f[1]) ? Number(f[1]) : null;
    out.push({ arrayJob: f[0], task: t, job: f[2], state: f[3], node: f[4] });
  }
  return out;
}

/**
 * Final states from accounting (sacct), by job id; null when the cluster keeps no accounting (sacct then reports
 * that accounting storage is disabled).
 */
export function accounting(jobs: readonly string[]): Map<string, { state: string; exit: string }> | null {
  if (jobs.length === 0) return new Map();
  let r;
  try {
    r = run('sacct', ['--noheader', '--parsable2', '--allocations', '--jobs', jobs.join(','), '--format=JobID,State,ExitCode']);
  } catch {
    return null;
  }
  if (r.status !== 0) return null;
  const out = new Map<string, { state: string; exit: string }>();
  for (const line of r.stdout.split('\n')) {
    const [id, state, exit] = line.trim().split('|');
    if (id && state) out.set(id, { state: state.split(' ')[0], exit: exit ?? '' });
  }
  return out;
}

/** Cancels jobs (whole array jobs included); ids Slurm no longer knows are ignored. */
export function cancel(jobs: readonly string[]): void {
  if (jobs.length === 0) return;
  const r = run('scancel', [...jobs]);
  if (r.status !== 0 && !/Invalid job id/i.test(r.stderr)) throw new SlurmError(`scancel failed: ${lastLine(r.stderr) || `status ${r.status}`}`);
}
