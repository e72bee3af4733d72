import type { Command } from 'commander';
import { fsPath } from '../../util/byte-path.js';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CommandModule } from './command.js';
import { EXIT_FAIL_ON, UserError, oneLine } from '../errors.js';
import { IOLensError, InputError } from '../../contract/errors.js';
import { FdSink } from '../../util/output.js';
import { checkCodes, diagnoseLog, type DiagnoseOptions } from '../../pipeline/diagnose.js';
import { readConfigFile } from '../config-file.js';
import { EXTENSIONS, RENDERERS, type RendererName } from '../../render/registry.js';
import { csvCodes, csvHeader, csvRow } from '../../render/csv.js';
import { safeJson } from '../../render/json.js';
import { DEFAULT_MAX_DETAILS, type RenderOptions } from '../../render/options.js';
import type { Mode, Report } from '../../contract/index.js';
import { expandInputs } from '../../store/walk.js';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';
import { reportFromTrace } from '../../pipeline/report-from-trace.js';
import { isTraceInput, traceStem } from '../../pipeline/trace-input.js';

interface ReportFlags {
  drishti?: boolean;
  json?: boolean;
  csv?: boolean;
  csvLevels?: boolean;
  html?: boolean;
  charts?: boolean;
  markdown?: boolean;
  issues?: boolean;
  code?: boolean;
  verbose?: boolean;
  path?: boolean;
  threshold?: boolean;
  config?: string;
  exportDir?: string;
  failOn?: string;
  width?: string;
  nodes?: string;
  hints?: string;
  sacct?: boolean;
  color?: boolean;
  force?: boolean;
  from?: string;
  maxInflate?: string;
  fromDxt?: boolean;
  model?: string;
}

type Format = 'json' | 'csv' | 'html' | 'markdown';

/** One log to report on: a path, or bytes read from standard input. */
interface LogArg {
  readonly path: string;
  readonly bytes?: Uint8Array;
  /** Why the walk could not take it (a FIFO, a dangling link …): reported like a bad log. */
  readonly error?: string;
}

function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UserError(`${flag} needs a positive integer, got '${v}'`);
  return n;
}

function failOnHit(report: Report, level: string | undefined): boolean {
  if (!level) return false;
  if (level === 'high') return report.summary.high > 0;
  if (level === 'warn') return report.summary.high + report.summary.warn > 0;
  throw new UserError(`--fail-on takes 'high' or 'warn', got '${level}'`);
}

/** All of standard input (a log piped in: `iolens report - < run.darshan`). */
function readStdin(): Uint8Array {
  try {
    return readFileSync(0);
  } catch (err) {
    throw new InputError(`-: cannot read standard input (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * The logs to report on, in order: files as given, `-` (standard input), directories (walked for *.darshan files,
 * like ingest) and quoted globs, then the paths listed in `--from FILE` (one per line; `-` reads the list from
 * standard input; blank lines and `#` comments skipped).
 */
export function resolveInputs(args: readonly string[], from: string | undefined): LogArg[] {
  const out: LogArg[] = [];
  let stdinUsed = false;
  const take = (arg: string) => {
    if (arg === '-') {
      if (stdinUsed) throw new UserError("'-' (standard input) can be given once");
      stdinUsed = true;
      out.push({ path: '(stdin)', bytes: readStdin() });
      return;
    }
    let dir = false;
    try {
      dir = statSync(fsPath(arg)).isDirectory();
    } catch {
      dir = false;
    }
    // A plain file keeps the path as given; directories and globs expand like `iolens ingest`.
    if (!dir && existsSync(fsPath(arg))) out.push({ path: arg });
    else if (dir || /[*?[]/.test(arg)) for (const c of expandInputs([arg])) out.push(c.error ? { path: c.path, error: c.error } : { path: c.path });
    else out.push({ path: arg });
  };
  for (const a of args) {
    const before = out.length;
    take(a);
    if (out.length === before) out.push({ path: a, error: 'no Darshan logs there (a directory or glob that matched none)' });
  }
  if (from !== undefined) {
    if (from === '-' && stdinUsed) throw new UserError("'-' (standard input) can be given once");
    let text: string;
    try {
      text = from === '-' ? Buffer.from(readStdin()).toString('utf8') : readFileSync(from, 'utf8');
    } catch (err) {
      if (err instanceof IOLensError) throw err;
      throw new UserError(`--from ${from}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    for (const line of text.split(/\r?\n/)) {
      const p = line.trim();
      if (p === '' || p.startsWith('#')) continue;
      if (p === '-') throw new UserError(`--from ${from}: '-' cannot be listed`);
      take(p);
    }
  }
  if (out.length === 0) throw new UserError(from !== undefined ? `--from ${from}: no log listed` : 'give a Darshan log (a file, a directory, a glob, - for standard input, or --from FILE)');
  return out;
}

const report: CommandModule = {
  name: 'report',
  register(program: Command) {
    withMaxInflate(program.command('report'))
      .description('job-level I/O diagnosis of a Darshan log: every Drishti insight, fixed (or exactly as Drishti with --drishti)')
      .argument('[logs...]', 'Darshan logs: files, directories (walked for *.darshan), quoted globs, or - (standard input); with several, one report after another (--json: one JSON object per line; --csv: one header, a row per log). Or one trace: a Recorder folder, DFTracer .pfw/.pfw.gz files or folder, Recorder Parquet files, or a tar of one (Darshan counters derived from its events, docs/trace-report.md)')
      .option('--from <file>', 'also the logs listed in <file>, one path per line (- reads the list from standard input)')
      .option('--from-dxt', "derive the counters from each log's DXT segments instead of reading the log's own counters")
      .option('--drishti', "reproduce Drishti's output exactly (which insights, order, panels, numbers), quirks included")
      .option('--json', 'print the report JSON (see docs/report-schema.md)')
      .option('--csv', 'print a CSV row per log: file, job id, then each check (True/False); with --drishti exactly Drishti\'s 32 columns')
      .option('--csv-levels', 'with --csv: the level of each check (HIGH/WARN/OK/INFO, empty when it found nothing) instead of True/False')
      .option('--html', 'print a self-contained HTML report, with its plots as static SVG (implies --charts)')
      .option('--charts', "add the report's charts section: the numbers behind the plots (docs/serve.md)")
      .option('--markdown', 'print a Markdown report')
      .option('--export-dir <dir>', 'write the requested formats to <dir>/<log name>.<ext> instead of printing them (and list what was written)')
      .option('--force', 'with --export-dir: overwrite existing files')
      .option('--issues', 'hide recommendations')
      .option('--code', 'prefix each insight with its code')
      .option('--verbose', 'show example code snippets under recommendations')
      .option('--path', 'show full file names in detail lines')
      .option('--threshold', 'list every threshold, not only those the insights used')
      .option('--config <file>', "thresholds and check settings (JSON; Drishti's --config form accepted)")
      .option('--width <columns>', 'terminal width (default: the terminal, or 80)')
      .option('--nodes <n>', 'number of compute nodes of the job (for the aggregator checks M08–M10)')
      .option('--hints <hints>', "the application's MPI-IO hints, 'key=value;…' (for M08–M10)")
      .option('--sacct', "ask Slurm's sacct for the job's node count (used only when that job's run contains the log's start)")
      .option('--no-color', 'no colours (also off with NO_COLOR or when not a terminal)')
      .option('--fail-on <level>', "exit with status 3 when insights at this level exist: 'high' or 'warn'")
      .option('--model <file>', 'add a learned diagnosis from a model file of iolens train: predicted vs measured throughput, the largest SHAP costs, which findings they corroborate (docs/learn.md)')
      .action(async (args: string[], flags: ReportFlags) => {
        const config = await readConfigFile(flags.config);
        const formats = (['json', 'csv', 'html', 'markdown'] as const).filter((f) => flags[f]);
        if (!flags.exportDir && formats.length > 1) throw new UserError(`choose one of --${formats.join(', --')} (or use --export-dir to write several)`);
        if (flags.exportDir && formats.length === 0) throw new UserError('--export-dir needs the formats to write: --json, --csv, --html and/or --markdown');
        if (flags.csvLevels && !flags.csv) throw new UserError('--csv-levels goes with --csv');
        if (flags.failOn !== undefined && flags.failOn !== 'high' && flags.failOn !== 'warn') throw new UserError(`--fail-on takes 'high' or 'warn', got '${flags.failOn}'`);
        const nodes = flags.nodes !== undefined ? positiveInt(flags.nodes, '--nodes') : null;
        const maxInflate = maxInflateOption(flags.maxInflate);
        const tty = !!process.stdout.isTTY;
        const opts: RenderOptions = {
          issuesOnly: !!flags.issues,
          showCodes: !!flags.code,
          verbose: !!flags.verbose,
          fullPath: !!flags.path,
          allThresholds: !!flags.threshold,
          csvLevels: !!flags.csvLevels,
          width: flags.width !== undefined ? positiveInt(flags.width, '--width') : tty && process.stdout.columns ? process.stdout.columns : 80,
          color: flags.color !== false && tty && !process.env.NO_COLOR,
        };
        const mode: Mode = flags.drishti ? 'drishti' : 'default';
        if (flags.model && (flags.drishti || flags.fromDxt)) throw new UserError(`--model goes with the default mode on a log's own counters, not with --${flags.drishti ? 'drishti' : 'from-dxt'}`);
        const learned = flags.model ? await learnedDiagnosis(flags.model) : null;
        const charts = !!(flags.charts || flags.html);
        // The terminal, Markdown and CSV outputs (no format, or only those) show at most the renderer's number of
        // details per finding: the report built for them keeps no more (a log of 50,000 files may have 25,000 in
        // one finding); JSON and HTML list all.
        const fewDetails = formats.every((f) => f === 'markdown' || f === 'csv');
        const out = new FdSink(1);
        if (!flags.fromDxt && flags.from === undefined && isTraceInput(args)) {
          if (learned) throw new UserError('--model needs a Darshan log: a trace has no job counters to predict from');
          // One trace, however many files it spans.
          const rep = await reportFromTrace(args, { mode, config, nodes, hints: flags.hints ?? null, charts, ...(maxInflate !== undefined ? { maxInflate } : {}) });
          emit(rep, { path: traceStem(args) }, flags, formats, opts, out, false, []);
          out.flush();
          if (failOnHit(rep, flags.failOn)) process.exitCode = EXIT_FAIL_ON;
          return;
        }
        const logs = resolveInputs(args, flags.from);
        const batch = logs.length > 1;
        if (batch && !flags.exportDir && formats.includes('html')) throw new UserError('--html prints one document: give one log, or use --export-dir');
        // Batches print one CSV header, first, whatever happens to the logs.
        const codes = csvCodes({ mode, checks: checkCodes(mode).map((code) => ({ code, status: 'quiet' as const })) }, !!learned);
        if (batch && !flags.exportDir && formats[0] === 'csv') out.write(csvHeader(mode, codes));
        let failed = 0;
        let gate = false;
        for (const log of logs) {
          try {
            if (log.error) throw new InputError(`${log.path}: ${log.error}`);
            if (flags.fromDxt && log.bytes) throw new UserError('--from-dxt reads a log file, not standard input');
            const input = log.bytes ? { path: log.path, bytes: log.bytes } : log.path;
            const diagnose = {
              mode,
              logName: log.bytes ? 'stdin' : basename(log.path),
              config,
              nodes,
              sacct: !!flags.sacct,
              hints: flags.hints ?? null,
              charts,
              ...(maxInflate !== undefined ? { maxInflate } : {}),
              ...(fewDetails ? { detailLimit: opts.maxDetails ?? DEFAULT_MAX_DETAILS } : {}),
            };
            const rep = flags.fromDxt
              ? await reportFromTrace([log.path], { mode, config, nodes, sacct: !!flags.sacct, hints: flags.hints ?? null, dxt: true, charts, ...(maxInflate !== undefined ? { maxInflate } : {}) })
              : learned
                ? learned(input, diagnose)
                : diagnoseLog(input, diagnose);
            emit(rep, log, flags, formats, opts, out, batch, codes);
            gate = failOnHit(rep, flags.failOn) || gate;
          } catch (err) {
            if (!batch || !(err instanceof IOLensError) || (err instanceof UserError && !(err instanceof InputError))) throw err;
            // In a batch one bad log never stops the rest: its error line, then on to the next.
            out.flush();
            process.stderr.write(`iolens: ${oneLine(err.message)}\n`);
            failed++;
          }
        }
        out.flush();
        if (failed) process.exitCode = 2;
        else if (gate) process.exitCode = EXIT_FAIL_ON;
      });
  },
};

/**
 * `--model`: loads the model file once and returns the per-log diagnosis with its learned section (the models layer
 * is loaded only when asked for, so a plain report starts as fast as before).
 */
async function learnedDiagnosis(file: string): Promise<(input: string | { path: string; bytes: Uint8Array }, opts: DiagnoseOptions) => Report> {
  const { checkJobsModel, loadBundle } = await import('../../models/bundle.js');
  const { diagnoseWithModel } = await import('../../models/learned.js');
  const bundle = loadBundle(file);
  checkJobsModel(bundle);
  return (input, opts) => diagnoseWithModel(input, opts, bundle, file);
}

/** Writes one report: to the export folder (listing each file written), or to standard output. */
function emit(rep: Report, log: LogArg, flags: ReportFlags, formats: readonly Format[], opts: RenderOptions, out: FdSink, batch: boolean, codes: readonly string[]): void {
  if (flags.exportDir) {
    const stem = (log.bytes ? 'stdin' : basename(log.path)).replace(/\.darshan$/, '');
    mkdirSync(flags.exportDir, { recursive: true });
    const targets = formats.map((f) => [f, join(flags.exportDir!, `${stem}.${EXTENSIONS[f]}`)] as const);
    // Never overwrite the user's files unless asked to.
    const existing = targets.filter(([, p]) => existsSync(p)).map(([, p]) => p);
    if (existing.length && !flags.force) throw new UserError(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}; not overwriting (use --force)`);
    for (const [f, p] of targets) {
      writeFileSync(p, RENDERERS[f](rep, { ...opts, color: false }));
      process.stderr.write(`iolens: wrote ${oneLine(p)}\n`);
    }
    out.write(RENDERERS.terminal(rep, opts));
    return;
  }
  const f: RendererName = formats.length ? formats[0] : 'terminal';
  if (batch && f === 'json') out.write(safeJson(rep)); // batches: JSON lines
  else if (batch && f === 'csv') out.write(csvRow(rep, codes, opts));
  else out.write(RENDERERS[f](rep, formats.length ? { ...opts, color: false } : opts));
}

export default report;
