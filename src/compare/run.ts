import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { IOLensError, InputError, UsageError, type Comparison } from '../contract/index.js';
import { logFacts, reportOf, type DiagnoseOptions } from '../pipeline/diagnose.js';
import { withPath } from '../pipeline/open.js';
import { countersFromTrace, reportFromCounters, traceFacts } from '../pipeline/report-from-trace.js';
import { isTraceInput } from '../pipeline/trace-input.js';
import { appName } from '../pipeline/extract.js';
import { openStore } from '../store/db.js';
import { appHistory, jobByHash, type HistoryJob } from '../store/history.js';
import { medianRun, runHistory } from './history.js';
import { compareRuns, type RunInput } from './diff.js';
import { attributeRuns } from './attribution.js';
import type { ModelBundle } from '../models/bundle.js';
import { runSettings } from './settings.js';

/** How `compare` reads its runs: the report options every run is analysed with. */
export interface CompareOptions {
  readonly diagnose?: DiagnoseOptions;
  readonly toolVersion: string;
  /** A learned model (`--model`): each other run's predicted difference attributed to features. */
  readonly model?: { readonly bundle: ModelBundle; readonly name: string };
}

/** One input read: a Darshan log, or a trace (a file or folder the trace readers recognise). */
export async function readRun(path: string, name: string, diagnose: DiagnoseOptions = {}): Promise<RunInput> {
  const opts: DiagnoseOptions = { ...diagnose, snippets: false, detailLimit: 10 };
  if (isTraceInput([path])) {
    const set = await countersFromTrace([path]);
    const facts = traceFacts(set);
    const report = reportFromCounters(set, [path], { ...opts, logName: name }, facts);
    return { name, path, report, settings: runSettings(facts, report) };
  }
  const lf = logFacts(path, opts);
  try {
    const report = reportOf(lf, { ...opts, logName: name });
    return { name, path, report, settings: runSettings(lf.facts, report) };
  } catch (err) {
    throw withPath(lf.name, err);
  }
}

/** Names to show: base names, or the paths as given where two base names are the same. */
export function runNames(paths: readonly string[]): string[] {
  const base = paths.map((p) => basename(p.replace(/\/+$/, '')) || p);
  return base.map((b, i) => (base.indexOf(b) !== base.lastIndexOf(b) ? paths[i] : b));
}

/**
 * Compares the runs at `paths` (the first is the base): each is read and analysed on its own; an input that cannot
 * be read is listed in `failed` with its one-line reason and the others are still compared. Throws when the base,
 * or every other run, cannot be read.
 */
export async function compareInputs(paths: readonly string[], opts: CompareOptions): Promise<Comparison> {
  if (paths.length < 2) throw new UsageError('compare needs a base run and at least one other');
  const names = runNames(paths);
  const runs: (RunInput | null)[] = [];
  const failed: { path: string; error: string }[] = [];
  for (let i = 0; i < paths.length; i++) {
    try {
      runs.push(await readRun(paths[i], names[i], opts.diagnose));
    } catch (err) {
      // bad input is the input's; anything else is a bug and is not hidden as one
      if (!(err instanceof IOLensError)) throw err;
      if (i === 0) throw err;
      failed.push({ path: paths[i], error: err.message.split('\n')[0] });
      runs.push(null);
    }
  }
  const others = runs.slice(1).filter((r): r is RunInput => r !== null);
  if (!others.length) throw new InputError(`no run to compare with ${names[0]}: ${failed.map((f) => f.error).join('; ')}`);
  return withAttribution(compareRuns(runs[0]!, others, opts.toolVersion, failed), opts.model);
}

/** The comparison with each other run's learned attribution (`--model`), or a warning saying why there is none. */
async function withAttribution(c: Comparison, model: CompareOptions['model']): Promise<Comparison> {
  if (!model || !c.others.length) return c;
  const parts = await attributeRuns(model.bundle, model.name, [c.base.path, ...c.others.map((o) => o.run.path)]);
  return {
    ...c,
    others: c.others.map((o, i) => {
      const a = parts[i];
      return typeof a === 'string' ? { ...o, warnings: [...o.warnings, `no learned attribution: ${a}`] } : { ...o, attribution: a };
    }),
  };
}

/** `compare --db`: one run against its application's history in the store. */
export interface HistoryOptions extends CompareOptions {
  readonly db: string;
  /** The application whose history to use (default: the run's, as the store names it, else its executable's base name). */
  readonly app?: string;
}

/**
 * One run (a log path, or a job hash of the store) against its application's history: where its I/O time, throughput
 * and run time stand among the application's other runs, whether it is an outlier, and why it differs from the
 * history's median run by I/O time (the one whose log is still at its stored path), compared as two runs are.
 */
export async function compareWithHistory(run: string, opts: HistoryOptions): Promise<Comparison> {
  const store = await openStore(opts.db, { readOnly: true });
  try {
    let path = run;
    let own: HistoryJob | null = null;
    if (!existsSync(run)) {
      if (!/^[0-9a-f]{8,64}$/i.test(run)) throw new InputError(`${run}: no such file, and not a job hash`);
      own = await jobByHash(store, run);
      if (!own.path || !existsSync(own.path)) throw new InputError(`job ${own.hash.slice(0, 12)}: its log is no longer at ${own.path ?? 'its stored path'}`);
      path = own.path;
    }
    const hash = own?.hash ?? createHash('sha256').update(readFileSync(path)).digest('hex');
    const r = await readRun(path, runNames([path])[0], opts.diagnose);
    const app = opts.app ?? (own ?? (await jobByHash(store, hash).catch(() => null)))?.app ?? appName(r.report.job.exe);
    const jobs = await appHistory(store, app);
    const notes: string[] = [];
    const reference = medianRun(jobs, hash, (j) => j.path !== null && existsSync(j.path));
    if (!reference) notes.push(`no other run of ${app} whose log is still at its stored path: nothing to compare with`);
    const history = runHistory(app, jobs, hash, r.report.io, reference, notes);
    if (!reference) return { ...compareRuns(r, [], opts.toolVersion), history };
    const base = await readRun(reference.path!, basename(reference.path!), opts.diagnose);
    return { ...(await withAttribution(compareRuns(base, [r], opts.toolVersion), opts.model)), history };
  } finally {
    store.close();
  }
}

/** Run arguments as paths: a file as given, or (with a store) a job hash, read from the path the store holds. */
export async function resolveRuns(args: readonly string[], db: string | undefined): Promise<string[]> {
  if (!db || args.every((a) => existsSync(a) || !/^[0-9a-f]{8,64}$/i.test(a))) return [...args];
  const store = await openStore(db, { readOnly: true });
  try {
    const out: string[] = [];
    for (const a of args) {
      if (existsSync(a) || !/^[0-9a-f]{8,64}$/i.test(a)) {
        out.push(a);
        continue;
      }
      const j = await jobByHash(store, a);
      if (!j.path || !existsSync(j.path)) throw new InputError(`job ${j.hash.slice(0, 12)}: its log is no longer at ${j.path ?? 'its stored path'}`);
      out.push(j.path);
    }
    return out;
  } finally {
    store.close();
  }
}
