import type { DarshanLog } from '../formats/darshan/index.js';
import { rankFindings } from '../checks/level-policy.js';
import { DIAGNOSIS_KNOB_NAMES, KNOBS, KNOB_NAMES } from '../config/knobs.js';
import { defaultConfig, type ReportConfig } from '../config/defaults.js';
import { FactContext } from '../facts/fact-context.js';
import { FactSource } from '../facts/source.js';
import { CHECKS } from '../checks/registry.js';
import { runChecks } from '../checks/run-checks.js';
import type { AnyCheck } from '../checks/types.js';
import type { Knob } from '../config/knobs.js';
import { emptyIoSummary } from '../facts/io-summary.js';
import type { TraceViews } from '../trace/score.js';
import { LEVELS, PANELS, REPORT_SCHEMA_VERSION, type HintsInfo, type Finding, type JobInfo, type Mode, type ModuleCompleteness, type Report } from '../contract/index.js';
import { buildVerdict } from './verdict.js';

/** Options of `buildReport`. Everything from outside the log comes in here; the function itself does no I/O. */
export interface BuildReportOptions {
  /** `default` (bugs fixed) or `drishti` (Drishti's output, quirks included). */
  readonly mode?: Mode;
  /** The log's file name as shown in the banner. */
  readonly logName?: string;
  /** The path the log was read from, as given (default: `logName`). */
  readonly inputPath?: string;
  readonly config?: ReportConfig;
  /** Compute nodes of the job and where the number came from. */
  readonly nodes?: { readonly count: number; readonly source: 'sacct' | 'option' } | null;
  /** The application's MPI-IO hints (`key=value;…`), e.g. from its ROMIO hints file. */
  readonly applicationHints?: string | null;
  /** Snippet texts to embed (by snippet id). */
  readonly snippets?: Readonly<Record<string, { readonly language: string; readonly text: string }>>;
  readonly toolVersion?: string;
  /** Checks to run (default: all, in Drishti order); an empty list gives the job information alone. */
  readonly checks?: readonly AnyCheck[];
  /** Notes from the steps before the report (how the node count was found …), listed after the analysis notes. */
  readonly notes?: readonly string[];
  /** At most this many details per finding, the rest counted in `detailsOmitted` (default: all; see `runChecks`). */
  readonly detailLimit?: number;
  /** A trace's scored views, for the trace checks (`iolens trace`). */
  readonly views?: TraceViews;
  /** What the input is missing when it is not in the facts (a trace): the report's completeness; every finding rests on it. */
  readonly gaps?: readonly ModuleCompleteness[];
  /** The knobs the THRESHOLDS list shows (default: Drishti's, and in the default mode the diagnosis checks'). */
  readonly thresholdKnobs?: readonly Knob[];
}

/** ISO 8601 of the whole second (the banner's precision). */
function iso(sec: number): string {
  const d = new Date(Math.floor(sec) * 1000);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace('.000Z', 'Z');
}

function parseHints(raw: string | null | undefined, source: HintsInfo['source']): HintsInfo {
  if (!raw) return { raw: null, entries: [], source: 'none' };
  const entries: [string, string][] = [];
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) entries.push([part.slice(0, eq).trim(), part.slice(eq + 1).trim()]);
  }
  return { raw, entries, source };
}

/**
 * Analyses one Darshan log and returns the report (a plain JSON-serialisable object). Pure: no file system, no
 * process state, no clock; facts are computed once from the reader's columnar tables.
 */
export function buildReport(log: DarshanLog, options: BuildReportOptions = {}): Report {
  const source = new FactSource(log);
  return buildReportFromFacts(FactContext.forLog(source), options);
}

/** The same from a fact context (hand-made facts in tests, or facts reloaded from disk). */
export function buildReportFromFacts(facts: FactContext, options: BuildReportOptions = {}): Report {
  const mode = options.mode ?? 'default';
  const config = options.config ?? defaultConfig();
  const appHints = options.applicationHints ? parseHints(options.applicationHints, 'application') : null;
  const nodes = options.nodes ?? null;
  const run = runChecks(options.checks ?? CHECKS, facts, {
    mode,
    config,
    env: { nodes: nodes ? nodes.count : null, applicationHints: appHints },
    ...(options.detailLimit !== undefined ? { detailLimit: options.detailLimit } : {}),
    ...(options.views ? { views: options.views } : {}),
    ...(options.gaps?.length ? { gaps: options.gaps } : {}),
  });

  // Drishti's order is panel, then check order. The default mode ranks every finding but the good patterns (last):
  // the most seconds first: what fixing saves (an observation: what its calls spent), as a share of the I/O time.
  const insights = run.insights
    .map((ins, order) => ({ ins, order }))
    .sort((a, b) => (mode === 'default' ? rankFindings(a.ins, b.ins) : PANELS.indexOf(a.ins.panel) - PANELS.indexOf(b.ins.panel)) || a.order - b.order)
    .map((x) => x.ins);

  const summary = { high: 0, warn: 0, ok: 0, info: 0, recommendations: 0 };
  for (const i of insights) {
    summary[i.level.toLowerCase() as 'high' | 'warn' | 'ok' | 'info']++;
    summary.recommendations += i.recommendations.length;
  }

  const job = facts.tryGet('job');
  const counts = facts.tryGet('files.counts');
  const hintsFact = facts.tryGet('hints');
  const modules = facts.tryGet('modules')?.names ?? [];
  const logHints: HintsInfo = hintsFact?.raw ? { raw: hintsFact.raw, entries: hintsFact.entries, source: 'darshan-log-writer' } : { raw: null, entries: [], source: 'none' };
  const start = job?.startSeconds ?? 0;
  const end = job?.endSeconds ?? 0;
  const jobInfo: JobInfo = {
    jobId: job?.jobId ?? '',
    exe: job?.exe ?? '',
    command: job?.command ?? '',
    logName: options.logName ?? '',
    uid: job?.uid ?? '',
    // A start or end the input does not know (a trace without a time origin) is NaN: no time shown.
    startTime: { epochSeconds: Number.isFinite(start) ? start : 0, iso: iso(start) },
    endTime: { epochSeconds: Number.isFinite(end) ? end : 0, iso: iso(end) },
    durationSeconds: job?.runSeconds ?? 0,
    processes: job?.processes ?? 0,
    nodes: { count: nodes ? nodes.count : null, source: nodes ? nodes.source : null },
    files: {
      total: counts?.total ?? 0,
      stdio: counts?.stdio ?? 0,
      posix: counts?.posix ?? 0,
      posixOnly: (counts?.posix ?? 0) - (counts?.mpiio ?? 0),
      mpiio: counts?.mpiio ?? 0,
    },
    hints: appHints ?? logHints,
    modules,
    darshanVersion: job?.darshanVersion ?? '',
  };

  const notes: string[] = [...facts.notes];
  if (hintsFact?.malformed.length) notes.push(`the job metadata hint list has entries without '=' (${hintsFact.malformed.join(', ')}); they were ignored`);
  if (modules.includes('MPI-IO')) {
    if (!appHints && logHints.raw) {
      notes.push(
        mode === 'drishti'
          ? "the hints shown are Darshan's own MPI-IO hints for writing its log (job metadata h), not the application's; the aggregator checks (M08–M10) use them as Drishti does"
          : "the log holds only the MPI-IO hints Darshan used to write the log itself (its job metadata key h), not the application's; pass --hints to evaluate aggregators (M08–M10)",
      );
    }
    if (!nodes) notes.push('the number of compute nodes is unknown (no --nodes, no --sacct): aggregator checks (M08–M10) were not evaluated');
  }
  notes.push(...(options.notes ?? []));

  const ioFact = facts.tryGet('io.summary');
  const io = ioFact ?? emptyIoSummary(job?.runSeconds ?? 0, job?.processes ?? 0);
  const gaps = facts.tryGet('completeness') ?? (options.gaps ? { complete: options.gaps.length === 0, modules: options.gaps } : null);
  const completeness = gaps ? { complete: gaps.complete, modules: gaps.modules } : { complete: true, modules: [] };
  const knobList = options.thresholdKnobs ?? (mode === 'default' ? [...KNOB_NAMES, ...DIAGNOSIS_KNOB_NAMES] : KNOB_NAMES);

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'iolens', version: options.toolVersion ?? '0.0.0' },
    mode,
    input: { format: 'darshan', paths: options.inputPath ? [options.inputPath] : options.logName ? [options.logName] : [], warnings: [] },
    job: jobInfo,
    io,
    ...(mode === 'default' ? { verdict: buildVerdict(io, insights, config.knobs.high_run_share) } : {}),
    completeness,
    insights,
    summary,
    thresholds: knobList.map((k) => ({ knob: k, label: KNOBS[k].label, value: config.knobs[k], unit: KNOBS[k].unit, triggered: run.marked.has(k) })),
    checks: run.outcomes,
    notes,
    messages: run.messages,
    ...(options.snippets ? { snippets: options.snippets } : {}),
  };
}

