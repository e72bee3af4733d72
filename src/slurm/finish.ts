import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { mergeStores } from '../store/merge.js';
import { expandInputs, shardOf } from '../store/walk.js';
import { checkCodes } from '../pipeline/diagnose.js';
import { csvCodes, csvHeader } from '../render/csv.js';
import { arraySpec, dirs, files, loadPlan, partErrFile, partFile, SlurmError, writeAtomic, type RunPlan } from './plan.js';
import { joinReportPart } from './report-parts.js';
import { writeAllSync } from '../util/output.js';
import { submitRound } from './scheduler.js';
import { attempts, fatalStatus, lastErrorLine, partFileCount, result, rounds, taskDone, type RunResult } from './state.js';

/**
 * The merge job of a round (finish.sh). Every task of the round has ended, in whatever state. A task whose part is
 * complete is done; a task that failed with a usage or input error fails the run (a rerun would fail the same way);
 * any other task — cancelled, timed out, killed with its node, crashed — is resubmitted in a new round with a new
 * merge job, up to the plan's retries. Resubmission is safe: ingest skips what a part already holds and trace and
 * report parts appear only when complete. When every part is complete it is checked and the parts are merged, and
 * result.json records the outcome for `iolens slurm status` and whoever follows the run.
 */

export interface FinishOutcome {
  /** What happened, one line. */
  readonly line: string;
  /** Exit status of the merge job. */
  readonly exit: number;
  /** A resubmission that could not be submitted (no result was written). */
  readonly submitted?: boolean;
}

function writeResult(plan: RunPlan, r: Omit<RunResult, 'finished'>): RunResult {
  const full = { ...r, finished: Math.floor(Date.now() / 1000) };
  writeAtomic(files.result(plan.workdir), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

/** Records a failed run. */
export function failRun(plan: RunPlan, message: string, exit = 1): FinishOutcome {
  writeResult(plan, { ok: false, exit, message, output: plan.output, errors: [] });
  return { line: `failed: ${message}`, exit: 1 };
}

function ids(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * Submits the next round for `missing` tasks (or only a merge job when none is missing), unless the retries are
 * spent (`force`: regardless; `iolens slurm resume`). Used by the merge job, the follower and resume.
 */
export function resubmit(plan: RunPlan, missing: readonly number[], why: string, force = false): FinishOutcome {
  const done = rounds(plan);
  const round = (done.length > 0 ? done[done.length - 1].round : 0) + 1;
  if (!force && round > plan.retries + 1) {
    if (missing.length === 0) return failRun(plan, `the merge did not complete in ${round - 1} rounds (${why})`);
    return failRun(plan, `task${missing.length > 1 ? 's' : ''} ${arraySpec(missing)} did not complete in ${round - 1} rounds (${why})`);
  }
  let r;
  try {
    r = submitRound(plan.workdir, round, missing.length > 0 ? arraySpec(missing) : 'none');
  } catch (err) {
    // Not the run's fault (a compute node that may not submit, a controller restarting): no result is written, so
    // the follower, or iolens slurm resume, can submit the round from another node.
    if (!(err instanceof SlurmError)) throw err;
    return { line: `${err.message}; the run is kept: iolens slurm resume ${plan.workdir} submits round ${round} from a node that can`, exit: 1, submitted: false };
  }
  return {
    submitted: true,
    line: missing.length > 0 ? `round ${round}: resubmitted task${missing.length > 1 ? 's' : ''} ${r.tasks} (${why}) as array job ${r.array}, merge job ${r.finish}` : `round ${round}: merge job ${r.finish}`,
    exit: 0,
  };
}

/** Tasks without a complete part, and the first fatal failure among them. */
export function missingTasks(plan: RunPlan): { missing: number[]; fatal: string | null } {
  const tries = attempts(plan);
  const missing: number[] = [];
  let fatal: string | null = null;
  for (const id of ids(plan.tasks)) {
    if (taskDone(plan, id, tries.get(id))) continue;
    missing.push(id);
    const last = (tries.get(id) ?? []).at(-1);
    if (fatal === null && last?.exit && fatalStatus(plan, last.exit.rc)) fatal = `task ${id} failed with status ${last.exit.rc}: ${lastErrorLine(plan, id) ?? 'see its log'}`;
  }
  return { missing, fatal };
}

/** The merge job's work. */
export async function finish(workdir: string, env: NodeJS.ProcessEnv = process.env): Promise<FinishOutcome> {
  const plan = loadPlan(workdir);
  const done = result(plan);
  if (done) return { line: `already finished: ${done.message}`, exit: 0 };
  const { missing, fatal } = missingTasks(plan);
  if (fatal) return failRun(plan, fatal);
  if (missing.length > 0) return resubmit(plan, missing, 'ended without a complete part');
  if (plan.kind === 'ingest') return finishIngest(plan);
  if (plan.kind === 'trace') return finishTrace(plan, env);
  return finishReport(plan);
}

/**
 * Checks each part against a fresh walk of the inputs (a part holding fewer files than its shard has lost some:
 * its task runs again and picks up the rest), then merges the parts into the store.
 */
async function finishIngest(plan: RunPlan): Promise<FinishOutcome> {
  const t0 = Date.now();
  const allFiles = plan.forward.includes('--all-files');
  const expected = new Array<number>(plan.tasks).fill(0);
  for (const c of expandInputs(plan.inputs, { allFiles })) expected[shardOf(c.key, plan.tasks)]++;
  const short: number[] = [];
  let logs = 0;
  for (const id of ids(plan.tasks)) {
    const n = await partFileCount(partFile(plan, id));
    logs += n;
    if (n < expected[id]) short.push(id);
  }
  if (short.length > 0) return resubmit(plan, short, 'parts hold fewer files than their shards');
  const t1 = Date.now();
  const st = await mergeStores(plan.output, ids(plan.tasks).map((id) => partFile(plan, id)));
  const took = `checked in ${((t1 - t0) / 1000).toFixed(1)} s, merged in ${((Date.now() - t1) / 1000).toFixed(1)} s`;
  const message = `${plan.output}: merged ${st.parts} parts of ${logs} files: ${st.jobs} new jobs, ${st.duplicates} already present, ${st.errors} errors (${took})`;
  writeResult(plan, { ok: true, exit: 0, message, output: plan.output, errors: [] });
  return { line: `done: ${message}`, exit: 0 };
}

/** Builds the report from the partial cubes with `iolens trace` itself (same options, same code as one process). */
function finishTrace(plan: RunPlan, env: NodeJS.ProcessEnv): FinishOutcome {
  const tmp = `${plan.output}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  let r;
  try {
    r = spawnSync(plan.node, [plan.iolens, 'trace', ...plan.forward, '--cube-parts', dirs.parts(plan.workdir), '--', ...plan.inputs], {
      cwd: plan.cwd,
      env,
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    closeSync(fd);
  }
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    const why = (r.stderr ?? '').trim().split('\n').at(-1) || `status ${r.status ?? r.signal}`;
    return failRun(plan, `the report of the partial cubes failed: ${why}`);
  }
  renameSync(tmp, plan.output);
  const message = `${plan.output}: report of ${plan.tasks} partial cubes`;
  writeResult(plan, { ok: true, exit: 0, message, output: plan.output, errors: [] });
  return { line: `done: ${message}`, exit: 0 };
}

/** Joins the report parts into the output part by part (one in memory at a time), under a temporary name. */
function finishReport(plan: RunPlan): FinishOutcome {
  const rp = plan.report!;
  const codes = csvCodes({ mode: rp.mode, checks: checkCodes(rp.mode).map((code) => ({ code, status: 'quiet' as const })) });
  const header = csvHeader(rp.mode, codes);
  const total = rp.chunks.reduce((a, n) => a + n, 0) + rp.walkErrors.length;
  const errors: string[] = [];
  const tmp = `${plan.output}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    if (total > 1 && plan.format === 'csv') writeAllSync(fd, Buffer.from(header));
    for (const id of ids(plan.tasks)) {
      const part = { logs: rp.chunks[id], out: readFileSync(partFile(plan, id), 'utf8'), err: readFileSync(partErrFile(plan, id), 'utf8') };
      const j = joinReportPart(part, id, plan.format, total, header);
      writeAllSync(fd, Buffer.from(j.text));
      errors.push(...j.errors);
    }
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, plan.output);
  const all = [...rp.walkErrors, ...errors];
  const tries = attempts(plan);
  const gate = ids(plan.tasks).some((id) => (tries.get(id) ?? []).some((a) => a.exit?.rc === 3));
  const exit = all.length > 0 ? 2 : gate ? 3 : 0;
  const message = `${plan.output}: ${total - all.length} of ${total} logs reported${all.length > 0 ? `, ${all.length} could not be read` : ''}`;
  writeResult(plan, { ok: true, exit, message, output: plan.output, errors: all });
  return { line: `done: ${message}`, exit: 0 };
}
