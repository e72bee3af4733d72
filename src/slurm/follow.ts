import { setTimeout as sleep } from 'node:timers/promises';
import { failRun, missingTasks, resubmit } from './finish.js';
import { files, parseArraySpec, partFile, SlurmError, type RunPlan } from './plan.js';
import { accounting, queue, type QueueEntry, type Round } from './scheduler.js';
import { attempts, lastErrorLine, partFileCount, result, rounds, taskDone, type Attempt, type RunResult } from './state.js';

/**
 * Follows a run: polls the work folder (status files, rounds, result.json) and squeue, and reports each change as
 * one line — a task running, done (with files and files/s for ingest), cancelled or failed; a new round; the merge
 * job; a progress summary — until result.json appears. The merge jobs do the resubmitting; the follower steps in
 * only when the chain is broken (a merge job that ended without submitting a round or writing a result), and then
 * resumes the run the same way, within the plan's retries.
 */

export interface FollowOptions {
  readonly pollMs: number;
  readonly say: (line: string) => void;
  /** Resume a broken chain (default true). */
  readonly resume?: boolean;
  /** Give up after this long without reaching squeue (ms). */
  readonly unreachableMs?: number;
}

const TERMINAL = new Set(['ENDED', 'COMPLETED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'NODE_FAIL', 'PREEMPTED', 'OUT_OF_MEMORY', 'BOOT_FAIL', 'DEADLINE', 'REVOKED', 'SPECIAL_EXIT']);

function secs(a: number, b: number): string {
  return `${Math.max(0, b - a)} s`;
}

async function partFiles(path: string): Promise<number | null> {
  try {
    return await partFileCount(path);
  } catch {
    return null; // being written by a rerun, or gone: counted another time
  }
}

interface TaskView {
  readonly key: string;
  readonly state: 'done' | 'running' | 'pending' | 'failed' | 'ended' | 'unknown';
  readonly line: string | null;
}

/** What one task is doing now, from its status files and the queue. */
function viewTask(plan: RunPlan, id: number, tries: readonly Attempt[], entries: readonly QueueEntry[], submitted: number): TaskView {
  const last = tries.at(-1);
  const attempt = Math.max(tries.length, submitted);
  if (taskDone(plan, id, tries)) {
    const a = [...tries].reverse().find((t) => t.exit)!;
    const use = a.usage ? `, ${a.usage.cpu.toFixed(1)} CPU s, ${Math.round(a.usage.maxRssMB)} MB peak` : '';
    return { key: `done:${a.job}`, state: 'done', line: `task ${id}: done in ${secs(a.started ?? a.exit!.ended, a.exit!.ended)} on ${a.host ?? '?'} (job ${a.job}, attempt ${attempt}${use})` };
  }
  const q = entries.at(-1);
  if (last?.exit) {
    const why = lastErrorLine(plan, id);
    return { key: `failed:${last.job}`, state: 'failed', line: `task ${id}: failed with status ${last.exit.rc} (job ${last.job})${why ? `: ${why}` : ''}` };
  }
  if (q && (q.state === 'RUNNING' || q.state === 'COMPLETING')) {
    return { key: `running:${q.job}`, state: 'running', line: `task ${id}: running on ${q.node || last?.host || '?'} (job ${q.job}, attempt ${attempt})` };
  }
  if (q && TERMINAL.has(q.state)) {
    return { key: `ended:${q.job}:${q.state}`, state: 'ended', line: `task ${id}: ${q.state} (job ${q.job}) before completing its part` };
  }
  if (q) return { key: `pending:${q.job}`, state: 'pending', line: null };
  return { key: `unknown:${last?.job ?? ''}`, state: 'unknown', line: null };
}

/**
 * Task attempts that started but left no exit status and that squeue no longer lists (slurmctld forgets finished
 * jobs after MinJobAge): their final state from accounting (sacct) where the cluster keeps it.
 */
function pastQueue(plan: RunPlan, q: readonly QueueEntry[], tries: ReadonlyMap<number, readonly Attempt[]>): QueueEntry[] {
  const listed = new Set(q.map((e) => e.job));
  const lost: { id: number; job: string; host: string }[] = [];
  for (const [id, list] of tries) {
    const last = list.at(-1);
    if (last && !last.exit && !listed.has(last.job) && !taskDone(plan, id, list)) lost.push({ id, job: last.job, host: last.host ?? '' });
  }
  if (lost.length === 0) return [];
  const acct = accounting(lost.map((l) => l.job));
  return lost.map((l) => ({ arrayJob: '', task: l.id, job: l.job, state: acct?.get(l.job)?.state ?? 'ENDED', node: l.host }));
}

/** How many rounds submitted task `id`. */
function submissions(rs: readonly Round[], id: number): number {
  return rs.filter((r) => r.array && parseArraySpec(r.tasks).includes(id)).length;
}

/** Follows the run in `plan.workdir` until it has a result; returns it. */
export async function follow(plan: RunPlan, opts: FollowOptions): Promise<RunResult> {
  const say = opts.say;
  const seen = new Map<number, string>();
  const seenRounds = new Set<number>();
  const counted = new Map<number, number>();
  let mergeSaid = '';
  let brokenSince = 0;
  let submitFailures = 0;
  let unreachableSince = 0;
  let lastSummary = '';
  let lastSummaryAt = 0;
  const t0 = Date.now();
  for (;;) {
    // Rounds first: a round submitted since the last look is reported even when its merge job already finished.
    const done = result(plan);
    const rs = rounds(plan);
    for (const r of rs) {
      if (seenRounds.has(r.round)) continue;
      seenRounds.add(r.round);
      say(r.array ? `round ${r.round}: array job ${r.array} (tasks ${r.tasks}), merge job ${r.finish} (after the array)` : `round ${r.round}: merge job ${r.finish}`);
    }
    if (done) return done;
    let q: QueueEntry[] | null = null;
    try {
      q = queue();
      unreachableSince = 0;
    } catch (err) {
      if (unreachableSince === 0) {
        unreachableSince = Date.now();
        say(`warning: ${(err as Error).message}; retrying`);
      } else if (Date.now() - unreachableSince > (opts.unreachableMs ?? 600_000)) {
        throw new SlurmError(`Slurm unreachable for ${Math.round((Date.now() - unreachableSince) / 1000)} s: ${(err as Error).message}; the run goes on without us — follow it later with iolens slurm status ${plan.workdir} --follow`);
      }
    }
    if (q) {
      const arrays = new Set(rs.map((r) => r.array).filter(Boolean));
      const tries = attempts(plan);
      const ended = pastQueue(plan, q, tries);
      const counts = { done: 0, running: 0, pending: 0, failed: 0 };
      let active = 0;
      for (let id = 0; id < plan.tasks; id++) {
        const entries = [...q.filter((e) => arrays.has(e.arrayJob) && e.task === id), ...ended.filter((e) => e.task === id)].sort((a, b) => Number(a.job) - Number(b.job));
        const v = viewTask(plan, id, tries.get(id) ?? [], entries, submissions(rs, id));
        if (v.state === 'done') counts.done++;
        else if (v.state === 'running') counts.running++;
        else if (v.state === 'failed' || v.state === 'ended') counts.failed++;
        else counts.pending++;
        if (v.state === 'running' || v.state === 'pending') active++;
        if (seen.get(id) === v.key) continue;
        seen.set(id, v.key);
        let line = v.line;
        if (v.state === 'done' && plan.kind === 'ingest' && !counted.has(id)) {
          const n = await partFiles(partFile(plan, id));
          if (n !== null) {
            counted.set(id, n);
            const a = (tries.get(id) ?? []).filter((t) => t.exit).at(-1);
            const took = a && a.started ? a.exit!.ended - a.started : 0;
            // A resumed task read only what its earlier attempts left: no rate for it.
            line = `${line}: ${n} files${took > 0 && submissions(rs, id) <= 1 ? ` (${(n / took).toFixed(1)} files/s)` : ''}`;
          }
        } else if (v.state === 'done' && plan.kind === 'report') {
          counted.set(id, plan.report!.chunks[id]);
          line = `${line}: ${plan.report!.chunks[id]} logs`;
        }
        if (line) say(line);
      }
      const latest = rs.at(-1);
      if (latest) {
        const m = q.find((e) => e.arrayJob === latest.finish && e.task === null);
        const state = m ? m.state : 'gone';
        if (m && (m.state === 'RUNNING' || m.state === 'COMPLETING') && mergeSaid !== latest.finish) {
          mergeSaid = latest.finish;
          say(`merge job ${latest.finish}: running on ${m.node || '?'} (round ${latest.round})`);
        }
        // A merge job that ended (or vanished) leaves a result or a new round; give the shared file system a moment.
        // While tasks of the run are still queued or running, a new round would run them twice: wait for them.
        if ((state === 'gone' || TERMINAL.has(state)) && active === 0) {
          if (brokenSince === 0) brokenSince = Date.now();
          else if (Date.now() - brokenSince > Math.max(3 * opts.pollMs, 10_000)) {
            brokenSince = 0;
            if (result(plan) || rounds(plan).length > rs.length) continue;
            say(`merge job ${latest.finish} ended (${state}) without a result or a new round (see ${files.finishLog(plan.workdir, latest.finish)})`);
            if (opts.resume === false) throw new SlurmError(`the run stopped; resume it with iolens slurm resume ${plan.workdir}`);
            // The new round (or the failure) is reported by the next look at the work folder.
            const { missing, fatal } = missingTasks(plan);
            if (fatal) failRun(plan, fatal);
            else {
              const out = resubmit(plan, missing, 'the merge job ended without a result');
              if (out.submitted === false) {
                say(out.line);
                if (++submitFailures >= 3) throw new SlurmError(`could not submit the next round ${submitFailures} times: ${out.line}`);
              }
            }
          }
        } else brokenSince = 0;
      }
      const items = [...counted.values()].reduce((a, n) => a + n, 0);
      const since = rs.length > 0 ? rs[0].submitted * 1000 : t0;
      const elapsed = Math.max(1, Math.round((Date.now() - since) / 1000));
      const unit = plan.kind === 'ingest' ? 'files' : 'logs';
      const rate = items > 0 ? `; ${items} ${unit} in ${elapsed} s (${(items / elapsed).toFixed(1)} ${unit}/s)` : '';
      const summary = `progress: ${counts.done}/${plan.tasks} tasks done, ${counts.running} running, ${counts.pending} pending, ${counts.failed} ended without a part${rate}`;
      const sig = `${counts.done}/${counts.running}/${counts.pending}/${counts.failed}`;
      if (sig !== lastSummary || Date.now() - lastSummaryAt > 60_000) {
        lastSummary = sig;
        lastSummaryAt = Date.now();
        say(summary);
      }
    }
    await sleep(opts.pollMs);
  }
}

/** The state of a run now, one line each: the plan, the rounds, every task, the merge job and the result. */
export function describeRun(plan: RunPlan): string[] {
  const lines = [`${plan.kind} run of ${plan.tasks} tasks in ${plan.workdir} (created ${new Date(plan.createdMs).toISOString()}, output ${plan.output})`];
  const rs = rounds(plan);
  for (const r of rs) lines.push(r.array ? `round ${r.round}: array job ${r.array} (tasks ${r.tasks}), merge job ${r.finish}` : `round ${r.round}: merge job ${r.finish}`);
  let q: QueueEntry[] = [];
  try {
    q = queue();
  } catch (err) {
    lines.push(`warning: ${(err as Error).message}`);
  }
  const arrays = new Set(rs.map((r) => r.array).filter(Boolean));
  const tries = attempts(plan);
  for (let id = 0; id < plan.tasks; id++) {
    const entries = q.filter((e) => arrays.has(e.arrayJob) && e.task === id).sort((a, b) => Number(a.arrayJob) - Number(b.arrayJob));
    const v = viewTask(plan, id, tries.get(id) ?? [], entries, submissions(rs, id));
    lines.push(v.line ?? `task ${id}: ${v.state}`);
  }
  const latest = rs.at(-1);
  const m = latest ? q.find((e) => e.arrayJob === latest.finish && e.task === null) : undefined;
  if (latest) lines.push(`merge job ${latest.finish}: ${m ? m.state : 'not in the queue'}`);
  const res = result(plan);
  lines.push(res ? `${res.ok ? 'done' : 'failed'}: ${res.message}` : 'no result yet');
  return lines;
}
