import { basename } from 'node:path';
import type { Mode, Report } from '../contract/index.js';
import { defaultConfig, type ReportConfig } from '../config/defaults.js';
import type { AnyCheck } from '../checks/types.js';
import type { DarshanLog } from '../formats/darshan/index.js';
import { FactContext } from '../facts/fact-context.js';
import { FactSource } from '../facts/source.js';
import { buildReportFromFacts } from '../report/build-report.js';
import { buildCharts } from '../report/charts.js';
import { CHECKS, CHECKS_BY_CODE } from '../checks/registry.js';
import { UsageError } from '../contract/errors.js';
import { resolveNodes, type NodeOptions } from './nodes.js';
import { inputName, openLog, withPath, type LogInput } from './open.js';
import { snippetTexts, toolVersion } from './resources.js';

/** Options of `diagnoseLog` (and of `extract`): everything from outside the log. */
export interface DiagnoseOptions extends NodeOptions {
  /** `default` (Drishti's bugs fixed, diagnosis checks D01–D19) or `drishti` (Drishti's output exactly). */
  readonly mode?: Mode;
  /** Thresholds and per-check settings (`--config`). */
  readonly config?: ReportConfig;
  /** The name shown in the banner (default: the file's base name). */
  readonly logName?: string;
  /** The application's MPI-IO hints, `key=value;…` (`--hints`). */
  readonly hints?: string | null;
  /** Embed the example snippets the recommendations point to (default true). */
  readonly snippets?: boolean;
  /** Checks to run (default: the whole registry). */
  readonly checks?: readonly AnyCheck[];
  /** Bytes all regions of the log may inflate to (default 1 GiB): past it, a LimitError. */
  readonly maxInflate?: number;
  /** Add the `charts` section: the numbers behind the plots (`--charts`; `--html` and the web service need it). */
  readonly charts?: boolean;
  /**
   * At most this many details per finding, the rest counted in the finding's `detailsOmitted` (default: all). For
   * outputs that show a few (the terminal shows 10): a log of 50,000 files may have 25,000 details in one finding.
   */
  readonly detailLimit?: number;
}

/** One opened log with its memoised facts: what every analysis of a log starts from. */
export interface LogFacts {
  readonly log: DarshanLog;
  readonly facts: FactContext;
  readonly name: string;
}

export function logFacts(input: LogInput, opts: { maxInflate?: number } = {}): LogFacts {
  const log = openLog(input, opts.maxInflate === undefined ? {} : { maxInflate: opts.maxInflate });
  return { log, facts: FactContext.forLog(new FactSource(log)), name: inputName(input) };
}

/** Codes of the checks a report of this mode lists in `checks`, in evaluation order. */
export function checkCodes(mode: Mode): string[] {
  return CHECKS.filter((c) => !c.meta.modes || c.meta.modes.includes(mode)).map((c) => c.meta.code);
}

/** Refuses options that name checks IOLens does not have or hints that are not `key=value` pairs. */
export function validateOptions(opts: DiagnoseOptions): void {
  for (const code of Object.keys(opts.config?.checks ?? {})) {
    if (!CHECKS_BY_CODE.has(code)) throw new UsageError(`config: unknown check '${code}' (see iolens list-checks)`);
  }
  if (opts.hints) {
    for (const part of opts.hints.split(';')) {
      if (part.trim() === '') continue;
      const eq = part.indexOf('=');
      if (eq <= 0 || part.slice(0, eq).trim() === '') throw new UsageError(`hints: '${part}' is not key=value (e.g. 'cb_nodes=4;romio_cb_write=enable')`);
    }
  }
}

/** The report of one log from its facts (shared by `diagnoseLog` and `extract`). */
export function reportOf(lf: LogFacts, opts: DiagnoseOptions = {}): Report {
  return reportOfFacts(lf.facts, lf.name, opts);
}

/** The report of any fact context (a log's, or one over counters derived from a trace) read from `inputPath`. */
export function reportOfFacts(facts: FactContext, inputPath: string, opts: DiagnoseOptions = {}): Report {
  validateOptions(opts);
  const job = facts.tryGet('job');
  const nodes = resolveNodes(job?.jobId ?? '', job?.startSeconds ?? 0, opts);
  const report = buildReportFromFacts(facts, {
    mode: opts.mode ?? 'default',
    logName: opts.logName ?? basename(inputPath),
    inputPath,
    config: opts.config ?? defaultConfig(),
    nodes: nodes.count !== null && nodes.source ? { count: nodes.count, source: nodes.source } : null,
    applicationHints: opts.hints ?? null,
    toolVersion: toolVersion(),
    ...(opts.snippets === false ? {} : { snippets: snippetTexts() }),
    ...(opts.checks ? { checks: opts.checks } : {}),
    notes: nodes.note ? [nodes.note] : [],
    ...(opts.detailLimit !== undefined ? { detailLimit: opts.detailLimit } : {}),
  });
  return opts.charts ? { ...report, charts: buildCharts(facts) } : report;
}

/**
 * Diagnoses one Darshan log: reads it, derives its facts once, runs every check and returns the report (the same
 * document `iolens report --json` prints). Throws an `InputError`/`FormatError` naming the file when the log cannot
 * be read; a damaged module region is not an error: the report says what was analysed.
 */
export function diagnoseLog(input: LogInput, options: DiagnoseOptions = {}): Report {
  const lf = logFacts(input, options);
  try {
    return reportOf(lf, options);
  } catch (err) {
    // Regions are read lazily: a budget overrun or damage met while analysing still names the file.
    throw withPath(lf.name, err);
  }
}
