import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { openStore } from '../store/db.js';
import { sourceCount } from '../store/queries/tables.js';
import { dirs, files, partErrFile, partFile, type RunPlan } from './plan.js';
import type { Round } from './scheduler.js';

/** One run of one task (an array task job), as its status files tell it. */
export interface Attempt {
  readonly job: string;
  readonly started: number | null;
  readonly host: string | null;
  /** Exit status and end time, once the task script got to write them. */
  readonly exit: { readonly rc: number; readonly ended: number } | null;
  /** CPU seconds (user + system, all threads) and peak resident memory of the iolens process, when it exited. */
  readonly usage: { readonly cpu: number; readonly maxRssMB: number } | null;
}

/** The outcome a run ends with (result.json). */
export interface RunResult {
  readonly ok: boolean;
  /** Exit status for the command that follows the run. */
  readonly exit: number;
  readonly message: string;
  readonly output: string;
  /** Error lines of individual logs (report runs), in input order. */
  readonly errors: readonly string[];
  readonly finished: number;
}

/** Exit statuses a task ends with when its part is complete (report: 2 = some logs unreadable, 3 = --fail-on hit). */
export function acceptedStatus(plan: RunPlan, rc: number): boolean {
  return rc === 0 || (plan.kind === 'report' && (rc === 2 || rc === 3));
}

/** Status 2 from ingest or trace is a usage or input error: running the task again gives the same. */
export function fatalStatus(plan: RunPlan, rc: number): boolean {
  return plan.kind !== 'report' && rc === 2;
}

function readText(p: string): string | null {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

/** The attempts of every task, by task id, oldest first. */
export function attempts(plan: RunPlan): Map<number, Attempt[]> {
  const byTask = new Map<number, Map<string, { started: number | null; host: string | null; exit: Attempt['exit']; usage: Attempt['usage'] }>>();
  let names: string[] = [];
  try {
    names = readdirSync(dirs.status(plan.workdir));
  } catch {
    // no status yet
  }
  for (const name of names) {
    const m = /^task-(\d+)\.(\d+)\.(start|exit|usage)$/.exec(name);
    if (!m) continue;
    const id = Number(m[1]);
    const job = m[2];
    const text = readText(`${dirs.status(plan.workdir)}/${name}`);
    if (text === null) continue;
    const f = text.trim().split(/\s+/);
    const jobs = byTask.get(id) ?? new Map();
    byTask.set(id, jobs);
    const a = jobs.get(job) ?? { started: null, host: null, exit: null, usage: null };
    if (m[3] === 'usage') {
      try {
        const u = JSON.parse(text) as { userCPUTime: number; systemCPUTime: number; maxRSS: number };
        a.usage = { cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssMB: u.maxRSS / 1024 };
      } catch {
        // written at exit; a killed process leaves none or half of it
      }
    } else if (m[3] === 'start') {
      a.started = Number(f[0]) || null;
      a.host = f[1] ?? null;
    } else if (f.length >= 1 && /^\d+$/.test(f[0])) {
      a.exit = { rc: Number(f[0]), ended: Number(f[1]) || 0 };
    }
    jobs.set(job, a);
  }
  const out = new Map<number, Attempt[]>();
  for (const [id, jobs] of byTask) {
    const list = [...jobs].map(([job, a]) => ({ job, ...a }));
    list.sort((x, y) => Number(x.job) - Number(y.job));
    out.set(id, list);
  }
  return out;
}

/** Whether task `id` has a complete part: an attempt ended with an accepted status and the part file is there. */
export function taskDone(plan: RunPlan, id: number, tries: readonly Attempt[] | undefined): boolean {
  const ok = (tries ?? []).some((a) => a.exit !== null && acceptedStatus(plan, a.exit.rc));
  if (!ok) return false;
  return existsSync(partFile(plan, id)) && (plan.kind !== 'report' || existsSync(partErrFile(plan, id)));
}

/** The submitted rounds, in order. */
export function rounds(plan: RunPlan): Round[] {
  let names: string[] = [];
  try {
    names = readdirSync(dirs.rounds(plan.workdir));
  } catch {
    return [];
  }
  const out: Round[] = [];
  for (const n of names) {
    if (!/^\d+\.json$/.test(n)) continue;
    const text = readText(`${dirs.rounds(plan.workdir)}/${n}`);
    if (text === null) continue;
    try {
      out.push(JSON.parse(text) as Round);
    } catch {
      // a round file being replaced; read it next time
    }
  }
  return out.sort((a, b) => a.round - b.round);
}

export function result(plan: RunPlan): RunResult | null {
  const text = readText(files.result(plan.workdir));
  if (text === null) return null;
  try {
    return JSON.parse(text) as RunResult;
  } catch {
    return null;
  }
}

/** The last line of a task's log that looks like an error (for messages about failed tasks). */
export function lastErrorLine(plan: RunPlan, id: number): string | null {
  const text = readText(files.taskLog(plan.workdir, id));
  if (text === null) return null;
  const lines = text.split('\n').filter((l) => /error|iolens:|slurmstepd|CANCELLED|DUE TO/i.test(l) && !/^iolens \w+ task \d+\//.test(l));
  return lines.length > 0 ? lines[lines.length - 1].trim().slice(0, 300) : null;
}

/** Files an ingest part holds (its `sources` rows: ingested, duplicate or error). */
export async function partFileCount(path: string): Promise<number> {
  const s = await openStore(path, { readOnly: true });
  try {
    return await sourceCount(s);
  } finally {
    s.close();
  }
}
