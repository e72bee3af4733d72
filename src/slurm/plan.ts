import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IOLensError, InputError } from '../contract/errors.js';
import { formatRanges } from '../text/format.js';

/**
 * A Slurm run of IOLens lives in one work folder on the shared file system (docs/scale-out.md):
 *
 *   plan.json          what to run: kind, inputs, forwarded options, tasks, output, sbatch settings
 *   task.sh            the array job: task $SLURM_ARRAY_TASK_ID runs one shard
 *   finish.sh          the merge job (afterany on the array): checks the shards, resubmits missing ones, or merges
 *   submit.sh          submits one round (array + merge job) and records it in rounds/
 *   lists/list-I.txt   report runs: the logs of task I, in input order
 *   parts/part-I.*     task I's result: a DuckDB part, a partial cube, or report output (+ .err)
 *   status/task-I.J.start, .exit   written by task I in job J (start time and host; exit status and end time)
 *   rounds/R.json      round R: its array job, task list and merge job
 *   logs/              stdout and stderr of every task attempt and merge job
 *   result.json        the outcome, written once by the last merge job (or by cancel)
 */

export type RunKind = 'ingest' | 'trace' | 'report';
export type OutputFormat = 'json' | 'csv' | 'terminal';

export const PLAN_VERSION = 1;

/** An error of the scheduler side (a Slurm command that fails, a work folder in the wrong state). */
export class SlurmError extends IOLensError {
  override readonly kind: string = 'slurm';
}

export interface SbatchSettings {
  readonly partition?: string;
  readonly time?: string;
  readonly account?: string;
  readonly cpus: number;
  /** Array throttle: at most this many tasks at once (`--array=…%K`). */
  readonly maxRunning?: number;
  /** Extra sbatch options, one each (`--qos=debug`, `--mem=4G` …). */
  readonly extra: readonly string[];
}

export interface ReportPlan {
  /** Logs handed to each task (its list file), in input order. */
  readonly chunks: readonly number[];
  /** Logs the walk could not take (FIFOs, dangling links …): their error lines, reported with the others. */
  readonly walkErrors: readonly string[];
  readonly mode: 'default' | 'drishti';
}

export interface RunPlan {
  readonly version: number;
  readonly kind: RunKind;
  readonly createdMs: number;
  readonly workdir: string;
  /** Folder the commands run in (relative inputs are relative to it). */
  readonly cwd: string;
  /** Absolute paths of the Node.js binary and of bin/iolens.js of the install that wrote the plan. */
  readonly node: string;
  readonly iolens: string;
  readonly iolensVersion: string;
  readonly tasks: number;
  /** Resubmissions allowed for a task that did not finish (cancelled, timed out, node failure, crash). */
  readonly retries: number;
  readonly sbatch: SbatchSettings;
  /** Inputs as given (archive folders and logs; trace paths); empty for report runs, whose logs are in lists/. */
  readonly inputs: readonly string[];
  /** Options of the iolens command, forwarded to every task (and to the merge of trace runs). */
  readonly forward: readonly string[];
  /** ingest: the job store the parts merge into; trace and report: the output file. */
  readonly output: string;
  readonly format: OutputFormat;
  readonly report?: ReportPlan;
}

export const dirs = {
  parts: (w: string) => join(w, 'parts'),
  status: (w: string) => join(w, 'status'),
  rounds: (w: string) => join(w, 'rounds'),
  logs: (w: string) => join(w, 'logs'),
  lists: (w: string) => join(w, 'lists'),
};

export const files = {
  plan: (w: string) => join(w, 'plan.json'),
  task: (w: string) => join(w, 'task.sh'),
  finish: (w: string) => join(w, 'finish.sh'),
  submit: (w: string) => join(w, 'submit.sh'),
  result: (w: string) => join(w, 'result.json'),
  list: (w: string, id: number) => join(w, 'lists', `list-${id}.txt`),
  taskLog: (w: string, id: number) => join(w, 'logs', `task-${id}.log`),
  finishLog: (w: string, job: string) => join(w, 'logs', `finish-${job}.log`),
};

/** The file a task's result goes to (report runs: `.out`, with the error lines in `.err`). */
export function partFile(plan: Pick<RunPlan, 'workdir' | 'kind'>, id: number): string {
  const ext = plan.kind === 'ingest' ? 'duckdb' : plan.kind === 'trace' ? 'cube' : 'out';
  return join(dirs.parts(plan.workdir), `part-${id}.${ext}`);
}

export function partErrFile(plan: Pick<RunPlan, 'workdir'>, id: number): string {
  return join(dirs.parts(plan.workdir), `part-${id}.err`);
}

/** Writes a file under a temporary name and renames it into place (readers never see half a file). */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Creates the work folder of a new run; an existing run there is never overwritten. */
export function createWorkdir(w: string): void {
  if (existsSync(files.plan(w))) {
    throw new SlurmError(`${w} holds an earlier run (plan.json); follow it with iolens slurm status ${w} --follow, resume it with iolens slurm resume ${w}, or choose another --workdir`);
  }
  for (const d of Object.values(dirs)) mkdirSync(d(w), { recursive: true });
}

export function savePlan(plan: RunPlan): void {
  writeAtomic(files.plan(plan.workdir), `${JSON.stringify(plan, null, 2)}\n`);
}

export function loadPlan(w: string): RunPlan {
  let text: string;
  try {
    text = readFileSync(files.plan(w), 'utf8');
  } catch {
    throw new InputError(`${w}: not an IOLens Slurm work folder (no plan.json)`);
  }
  let plan: RunPlan;
  try {
    plan = JSON.parse(text) as RunPlan;
  } catch {
    throw new InputError(`${files.plan(w)}: not valid JSON`);
  }
  if (plan.version !== PLAN_VERSION) throw new InputError(`${files.plan(w)}: plan version ${plan.version}, this IOLens reads version ${PLAN_VERSION}`);
  return plan;
}

/** Task ids as Slurm's array syntax, ranges collapsed: [0,1,2,5] → "0-2,5". */
export function arraySpec(ids: readonly number[]): string {
  return formatRanges([...ids].sort((a, b) => a - b), ',');
}

/** Parses Slurm's array syntax ("0-3,7", with an optional "%K" throttle) into task ids. */
export function parseArraySpec(spec: string): number[] {
  const out: number[] = [];
  const body = spec.split('%')[0];
  if (body === '' || body === 'none') return out;
  for (const part of body.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new SlurmError(`bad array specification "${spec}"`);
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}
