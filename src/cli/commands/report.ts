import type { Command } from 'commander';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CommandModule } from './command.js';
import { openLogOrExit, readingLog } from '../open-log.js';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';
import { packageRoot, packageVersion } from '../../util/package-root.js';
import { EXIT_FAIL_ON, UserError } from '../errors.js';
import { FdSink } from '../../util/output.js';
import { buildReport } from '../../report/build-report.js';
import { defaultConfig, type ReportConfig } from '../../config/defaults.js';
import { SNIPPETS } from '../../checks/types.js';
import { EXTENSIONS, RENDERERS, type RendererName } from '../../render/registry.js';
import type { RenderOptions } from '../../render/options.js';
import type { Report } from '../../contract/index.js';

interface ReportFlags {
  drishti?: boolean;
  json?: boolean;
  csv?: boolean;
  html?: boolean;
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
  maxInflate?: string;
}

function toolVersion(): string {
  try {
    return packageVersion();
  } catch {
    return '0.0.0';
  }
}

/** Loads every snippet file shipped under `snippets/`. */
function loadSnippets(): Record<string, { language: string; text: string }> {
  const out: Record<string, { language: string; text: string }> = {};
  for (const [id, language] of Object.entries(SNIPPETS)) {
    const p = join(packageRoot(), 'snippets', id);
    if (existsSync(p)) out[id] = { language, text: readFileSync(p, 'utf8') };
  }
  return out;
}

/** Node count of a Slurm job from `sacct` (first row's NNodes), or null when sacct is absent or says nothing. */
function nodesFromSacct(jobId: string): number | null {
  try {
    const out = execFileSync('sacct', ['--job', jobId, '--format=JobID,JobIDRaw,NNodes,NCPUs', '--parsable2', '--delimiter', ','], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const lines = out.trim().split('\n');
    if (lines.length < 2) return null;
    const col = lines[0].split(',').indexOf('NNodes');
    const v = col >= 0 ? Number(lines[1].split(',')[col]) : NaN;
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UserError(`${flag} needs a positive integer, got '${v}'`);
  return n;
}

/** Reads a --config file; the validator (zod) is loaded only then, to keep start-up fast. */
async function readConfig(path: string | undefined): Promise<ReportConfig> {
  if (!path) return defaultConfig();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`--config ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const { ConfigError, parseConfig } = await import('../../config/load.js');
  try {
    return parseConfig(text, path);
  } catch (err) {
    if (err instanceof ConfigError) throw new UserError(err.message);
    throw err;
  }
}

function failOnHit(report: Report, level: string | undefined): boolean {
  if (!level) return false;
  if (level === 'high') return report.summary.high > 0;
  if (level === 'warn') return report.summary.high + report.summary.warn > 0;
  throw new UserError(`--fail-on takes 'high' or 'warn', got '${level}'`);
}

const report: CommandModule = {
  name: 'report',
  register(program: Command) {
    withMaxInflate(program.command('report'))
      .description('job-level I/O diagnosis of a Darshan log: every Drishti insight, fixed (or exactly as Drishti with --drishti)')
      .argument('<logs...>', 'Darshan log files (.darshan); with several, one report after another (--json: one JSON object per line; --csv: one header, a row per log)')
      .option('--drishti', "reproduce Drishti's output exactly (which insights, order, panels, numbers), quirks included")
      .option('--json', 'print the report JSON (see docs/report-schema.md)')
      .option('--csv', "print Drishti's CSV: JOB then True/False for each of the 32 codes")
      .option('--html', 'print a self-contained HTML report')
      .option('--markdown', 'print a Markdown report')
      .option('--export-dir <dir>', 'write the requested formats to <dir>/<log name>.<ext> instead of printing them')
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
      .option('--no-sacct', 'do not ask Slurm sacct for the node count')
      .option('--no-color', 'no colours (also off with NO_COLOR or when not a terminal)')
      .option('--fail-on <level>', "exit with status 3 when insights at this level exist: 'high' or 'warn'")
      .action(async (files: string[], flags: ReportFlags) => {
        const config = await readConfig(flags.config);
        const formats = (['json', 'csv', 'html', 'markdown'] as const).filter((f) => flags[f]);
        if (!flags.exportDir && formats.length > 1) throw new UserError(`choose one of --${formats.join(', --')} (or use --export-dir to write several)`);
        if (files.length > 1 && !flags.exportDir && formats.includes('html')) throw new UserError('--html prints one document: give one log, or use --export-dir');
        const out = new FdSink(1);
        const ctx = batchContext();
        let failed = 0;
        let gate = false;
        for (const [i, file] of files.entries()) {
          try {
            gate = readingLog(file, () => runOne(file, flags, config, formats, out, ctx, files.length > 1, i === 0)) || gate;
          } catch (err) {
            if (files.length === 1 || !(err instanceof UserError)) throw err;
            // In a batch one bad log never stops the rest: its error line, then on to the next.
            out.flush();
            process.stderr.write(`iolens: ${err.message}\n`);
            failed++;
          }
        }
        out.flush();
        if (failed) process.exitCode = 2;
        else if (gate) process.exitCode = EXIT_FAIL_ON;
      });
  },
};

/** Builds and renders one log's report; returns whether it trips --fail-on. */
/** What every log of a batch shares: read once. */
interface BatchContext {
  readonly toolVersion: string;
  /** Snippet files, read on first use. */
  snippets(): Record<string, { language: string; text: string }>;
}

function batchContext(): BatchContext {
  let snippets: Record<string, { language: string; text: string }> | null = null;
  return { toolVersion: toolVersion(), snippets: () => (snippets ??= loadSnippets()) };
}

function runOne(file: string, flags: ReportFlags, config: ReportConfig, formats: readonly ('json' | 'csv' | 'html' | 'markdown')[], out: FdSink, ctx: BatchContext, batch: boolean, first: boolean): boolean {
  const maxInflate = maxInflateOption(flags.maxInflate);
  const log = openLogOrExit(file, maxInflate === undefined ? {} : { maxInflate });
  let nodes: { count: number; source: 'option' | 'sacct' } | null = null;
  if (flags.nodes !== undefined) nodes = { count: positiveInt(flags.nodes, '--nodes'), source: 'option' };
  else if (flags.sacct !== false && log.has('MPI-IO')) {
    const n = nodesFromSacct(log.job.jobid.toString());
    if (n !== null) nodes = { count: n, source: 'sacct' };
  }
  const needSnippets = !!flags.verbose || formats.includes('html') || formats.includes('json');
  const rep = buildReport(log, {
    mode: flags.drishti ? 'drishti' : 'default',
    logName: basename(file),
    config,
    nodes,
    applicationHints: flags.hints ?? null,
    toolVersion: ctx.toolVersion,
    ...(needSnippets ? { snippets: ctx.snippets() } : {}),
  });
  const tty = !!process.stdout.isTTY;
  const opts: RenderOptions = {
    issuesOnly: !!flags.issues,
    showCodes: !!flags.code,
    verbose: !!flags.verbose,
    fullPath: !!flags.path,
    allThresholds: !!flags.threshold,
    width: flags.width !== undefined ? positiveInt(flags.width, '--width') : tty && process.stdout.columns ? process.stdout.columns : 80,
    color: flags.color !== false && tty && !process.env.NO_COLOR,
  };
  const stem = basename(file).replace(/\.darshan$/, '');
  if (flags.exportDir) {
    mkdirSync(flags.exportDir, { recursive: true });
    const targets = formats.map((f) => [f, join(flags.exportDir!, `${stem}.${EXTENSIONS[f]}`)] as const);
    // Never overwrite the user's files unless asked to.
    const existing = targets.filter(([, p]) => existsSync(p)).map(([, p]) => p);
    if (existing.length && !flags.force) throw new UserError(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}; not overwriting (use --force)`);
    for (const [f, p] of targets) writeFileSync(p, RENDERERS[f](rep, { ...opts, color: false }));
    out.write(RENDERERS.terminal(rep, opts));
  } else {
    const f: RendererName = formats.length ? formats[0] : 'terminal';
    if (batch && f === 'json') out.write(`${JSON.stringify(rep)}\n`); // batches: JSON lines
    else {
      const text = RENDERERS[f](rep, formats.length ? { ...opts, color: false } : opts);
      // Batches: one CSV header.
      out.write(batch && f === 'csv' && !first ? text.slice(text.indexOf('\n') + 1) : text);
    }
  }
  return failOnHit(rep, flags.failOn);
}

export default report;
