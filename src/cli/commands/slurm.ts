import { Command, CommanderError, Option } from 'commander';
import { chmodSync, closeSync, existsSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import type { CommandModule } from './command.js';
import { UserError, oneLine } from '../errors.js';
import { IOLensError } from '../../contract/errors.js';
import { packageRoot, packageVersion } from '../../util/package-root.js';
import { writeAllSync } from '../../util/output.js';
import { DEFAULT_DB } from '../../store/db.js';
import { createWorkdir, files, loadPlan, PLAN_VERSION, savePlan, SlurmError, type OutputFormat, type RunKind, type RunPlan } from '../../slurm/plan.js';
import { finishScript, submitScript, taskScript } from '../../slurm/script.js';
import { cancel, queue, submitRound } from '../../slurm/scheduler.js';
import { failRun, finish, missingTasks, resubmit } from '../../slurm/finish.js';
import { describeRun, follow } from '../../slurm/follow.js';
import { result, rounds } from '../../slurm/state.js';

/**
 * `iolens slurm ingest|trace|report …`: the same commands as job arrays on a Slurm cluster (docs/scale-out.md).
 * Each takes its command's own options (checked by that command's parser, then passed to every task) plus the
 * Slurm options below; it writes a work folder with the scripts, submits them, and follows the run.
 */

interface SlurmFlags {
  tasks: string;
  workdir?: string;
  partition?: string;
  time?: string;
  account?: string;
  cpus: string;
  maxRunning?: string;
  retries: string;
  sbatch: string[];
  poll: string;
  dryRun?: boolean;
  follow: boolean;
  out?: string;
}

function say(line: string): void {
  process.stderr.write(`iolens slurm: ${oneLine(line)}\n`);
}

function wholeNumber(flag: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UserError(`${flag} takes a whole number from ${min} to ${max}, not ${JSON.stringify(v)}`);
  return n;
}

function seconds(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0.1 || n > 3600) throw new UserError(`${flag} takes seconds from 0.1 to 3600, not ${JSON.stringify(v)}`);
  return n;
}

/** A path that goes into #SBATCH lines and scripts unquoted must have no blanks or quotes. */
function plainPath(what: string, p: string): string {
  if (!/^[^\s'"\\$`]+$/.test(p)) throw new UserError(`${what} ${JSON.stringify(p)}: Slurm job scripts need a path without blanks, quotes or $`);
  return p;
}

function withSlurmOptions(cmd: Command, output: boolean): Command {
  cmd
    .option('--tasks <n>', 'array tasks: shards of the input (Slurm limits arrays to MaxArraySize, often 1001)', '4')
    .option('--workdir <dir>', 'work folder on the shared file system: scripts, parts, logs (default: the output name + .slurm)')
    .option('--partition <p>', 'sbatch --partition')
    .option('--time <t>', 'sbatch --time (of each task and of the merge job)')
    .option('--account <a>', 'sbatch --account')
    .option('--cpus <n>', 'CPUs per task (sbatch --cpus-per-task; ingest uses them as worker threads)', '1')
    .option('--max-running <k>', 'at most k tasks at once (array throttle %k)')
    .option('--retries <n>', 'rounds of resubmission for tasks that end without their part (cancelled, timed out, node failure)', '2')
    .addOption(new Option('--sbatch <option>', 'one more sbatch option for every job, e.g. --sbatch=--qos=debug (repeatable)').argParser((v: string, prev: string[] = []) => [...prev, v]).default([]))
    .option('--poll <seconds>', 'seconds between looks at the queue while following', '10')
    .option('--dry-run', 'write the work folder and print the scripts; submit nothing (then: bash WORKDIR/submit.sh)')
    .option('--no-follow', 'submit and return; follow later with iolens slurm status WORKDIR --follow');
  if (output) cmd.option('--out <file>', 'write the merged output to <file> (default: printed when the run ends, and kept as WORKDIR/output.*)');
  return cmd.allowUnknownOption().allowExcessArguments();
}

/** A command's arguments as its own parser reads them: positional arguments, and options given on the command line. */
interface Parsed {
  readonly positional: string[];
  readonly flags: Record<string, unknown>;
  /** The given options, spelt out again for the tasks (`--name=value`, `--flag`, `--no-flag`). */
  readonly forward: string[];
}

async function parseAs(name: 'ingest' | 'trace' | 'report', args: readonly string[]): Promise<Parsed> {
  const mod = name === 'ingest' ? await import('./ingest.js') : name === 'trace' ? await import('./trace.js') : await import('./report.js');
  let message = '';
  const program = new Command('iolens').exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: (s) => (message = s) });
  mod.default.register(program);
  const cmd = program.commands[0];
  let got: unknown[] = [];
  cmd.exitOverride().action((...a: unknown[]) => {
    got = a;
  });
  try {
    await program.parseAsync([name, ...args], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) throw new UserError(`iolens ${name}: ${message.trim().replace(/^error: /, '') || err.message}`);
    throw err;
  }
  const flags = cmd.opts();
  const forward: string[] = [];
  for (const o of cmd.options) {
    const key = o.attributeName();
    if (cmd.getOptionValueSource(key) !== 'cli') continue;
    const v = flags[key];
    if (o.negate) forward.push(o.long!);
    else if (typeof v === 'boolean') forward.push(o.long!);
    else forward.push(`${o.long}=${String(v)}`);
  }
  return { positional: (got[0] as string[] | undefined) ?? [], flags, forward };
}

function reject(flags: Record<string, unknown>, cmdName: string, names: readonly string[]): void {
  for (const n of names) {
    const key = n.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (flags[key] !== undefined && flags[key] !== false) throw new UserError(`${n} cannot be used with iolens slurm ${cmdName} (the tasks set it or it has no sharded form)`);
  }
}

function inputExists(p: string): void {
  if (!existsSync(p) && !/[*?[]/.test(p)) throw new UserError(`${p}: no such file or directory`);
}

function sbatchAvailable(): void {
  const r = spawnSync('sbatch', ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw new SlurmError('sbatch not found: run this where the Slurm client commands are, or use --dry-run to write the scripts only');
}

function defaultWorkdir(output: string | undefined, kind: RunKind): string {
  if (output) return `${output}.slurm`;
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `iolens-${kind}-${stamp}.slurm`;
}

interface RunSpec {
  kind: RunKind;
  inputs: string[];
  forward: string[];
  output: string | undefined;
  format: OutputFormat;
  tasks: number;
  report?: RunPlan['report'];
  lists?: string[][];
}

/** Writes the work folder, then submits and follows the run (or prints the scripts with --dry-run). */
async function launch(spec: RunSpec, f: SlurmFlags): Promise<void> {
  const retries = wholeNumber('--retries', f.retries, 0, 100);
  const cpus = wholeNumber('--cpus', f.cpus, 1, 4096);
  const maxRunning = f.maxRunning !== undefined ? wholeNumber('--max-running', f.maxRunning, 1, 1_000_000) : undefined;
  const poll = seconds('--poll', f.poll);
  for (const x of f.sbatch) if (!x.startsWith('-') || /\s/.test(x)) throw new UserError(`--sbatch takes one sbatch option without blanks, such as --qos=debug, not ${JSON.stringify(x)}`);
  for (const [flag, v] of [['--partition', f.partition], ['--time', f.time], ['--account', f.account]] as const) {
    if (v !== undefined && !/^[\w.:,+@/-]+$/.test(v)) throw new UserError(`${flag} ${JSON.stringify(v)}: not a Slurm name or time`);
  }
  const workdir = resolve(plainPath('--workdir', f.workdir ?? defaultWorkdir(spec.output, spec.kind)));
  const cwd = plainPath('the current folder', process.cwd());
  const ext = spec.format === 'terminal' ? 'txt' : spec.format;
  const output = resolve(spec.output ?? join(workdir, spec.kind === 'ingest' ? DEFAULT_DB : `output.${ext}`));
  if (spec.kind !== 'ingest' || spec.output) {
    const dir = dirname(output);
    if (!output.startsWith(workdir) && !existsSync(dir)) throw new UserError(`${dir}: no such folder for the output`);
  }
  if (!f.dryRun) sbatchAvailable();
  createWorkdir(workdir);
  const plan: RunPlan = {
    version: PLAN_VERSION,
    kind: spec.kind,
    createdMs: Date.now(),
    workdir,
    cwd,
    node: plainPath('Node.js', process.execPath),
    iolens: plainPath('the IOLens install', join(packageRoot(), 'bin', 'iolens.js')),
    iolensVersion: packageVersion(),
    tasks: spec.tasks,
    retries,
    sbatch: { cpus, extra: f.sbatch, ...(f.partition ? { partition: f.partition } : {}), ...(f.time ? { time: f.time } : {}), ...(f.account ? { account: f.account } : {}), ...(maxRunning ? { maxRunning } : {}) },
    inputs: spec.inputs,
    forward: spec.forward,
    output,
    format: spec.format,
    ...(spec.report ? { report: spec.report } : {}),
  };
  spec.lists?.forEach((list, id) => writeFileSync(files.list(workdir, id), list.map((p) => `${p}\n`).join('')));
  const scripts: [string, string][] = [
    [files.task(workdir), taskScript(plan)],
    [files.finish(workdir), finishScript(plan)],
    [files.submit(workdir), submitScript(plan)],
  ];
  for (const [p, text] of scripts) {
    writeFileSync(p, text);
    chmodSync(p, 0o755);
  }
  savePlan(plan);
  if (f.dryRun) {
    for (const [p, text] of scripts) writeAllSync(1, Buffer.from(`# ==> ${p} <==\n${text}\n`));
    say(`dry run: wrote ${workdir} (${spec.tasks} tasks); submit with: bash ${files.submit(workdir)}; follow with: iolens slurm status ${workdir} --follow`);
    return;
  }
  let r;
  try {
    r = submitRound(workdir, 1, `0-${spec.tasks - 1}`);
  } catch (err) {
    if (!(err instanceof SlurmError)) throw err;
    throw new SlurmError(`${err.message}; ${workdir} is kept: once the cause is fixed, iolens slurm resume ${workdir} submits it (or remove the folder)`);
  }
  if (!f.follow) {
    say(`round 1: array job ${r.array} (tasks ${r.tasks}), merge job ${r.finish}; follow with: iolens slurm status ${workdir} --follow`);
    return;
  }
  await followToEnd(plan, poll);
}

/** Copies a file to standard output in pieces (a report batch can be larger than memory). */
function copyToStdout(path: string): void {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      writeAllSync(1, buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/** Follows a run to its result, prints its output (when it was not written to a file of the user's) and sets the exit status. */
async function followToEnd(plan: RunPlan, poll: number): Promise<void> {
  const res = await follow(plan, { pollMs: poll * 1000, say });
  for (const e of res.errors) process.stderr.write(`${e}\n`);
  say(res.ok ? `done: ${res.message}` : `failed: ${res.message}`);
  if (res.ok && plan.kind !== 'ingest' && plan.output.startsWith(plan.workdir + '/')) copyToStdout(plan.output);
  process.exitCode = res.exit;
}

const slurm: CommandModule = {
  name: 'slurm',
  register(program: Command) {
    const top = program.command('slurm').description('run ingest, trace analysis and report batches as Slurm job arrays: submit, follow, resubmit, merge (docs/scale-out.md)');

    withSlurmOptions(top.command('ingest'), false)
      .description('ingest logs with a job array: one DuckDB part per task (ingest --shard), merged into --db by a merge job')
      .argument('<args...>', 'the arguments of iolens ingest: log folders, files or quoted globs, --db OUT, --files, --no-report …')
      .action(async (args: string[], f: SlurmFlags) => {
        const p = await parseAs('ingest', args);
        reject(p.flags, 'ingest', ['--shard', '--jobs', '--sacct', '--fs-metrics', '--quiet']);
        if (p.positional.length === 0) throw new UserError('give the log folders, files or globs to ingest');
        p.positional.forEach(inputExists);
        const tasks = wholeNumber('--tasks', f.tasks, 1, 1_000_000);
        const db = resolve((p.flags.db as string | undefined) ?? DEFAULT_DB);
        const forward = p.forward.filter((x) => !x.startsWith('--db='));
        await launch({ kind: 'ingest', inputs: p.positional, forward, output: db, format: 'terminal', tasks }, f);
      });

    withSlurmOptions(top.command('trace'), true)
      .description('trace analysis with a job array: each task reads its share (DFTracer files, Recorder ranks, DXT records) into a partial cube; the merge job reports on them all, as iolens trace does')
      .argument('<args...>', 'the arguments of iolens trace: the trace, --json/--csv, --views, --layers …')
      .action(async (args: string[], f: SlurmFlags) => {
        const p = await parseAs('trace', args);
        reject(p.flags, 'trace', ['--shard', '--cube-out', '--cube-parts']);
        const { isTarName } = await import('../../formats/trace/readers/tar.js');
        const { resolveSource } = await import('../../formats/trace/readers/index.js');
        if (p.positional.length === 1 && isTarName(p.positional[0])) throw new UserError(`${p.positional[0]}: unpack the archive on the shared file system and give the folder (each task reads the trace in place)`);
        try {
          resolveSource(p.positional);
        } catch (err) {
          if (err instanceof IOLensError) throw new UserError(err.message);
          throw err;
        }
        const tasks = wholeNumber('--tasks', f.tasks, 1, 1_000_000);
        const format: OutputFormat = p.flags.json ? 'json' : p.flags.csv ? 'csv' : 'terminal';
        await launch({ kind: 'trace', inputs: p.positional, forward: p.forward, output: f.out, format, tasks }, f);
      });

    withSlurmOptions(top.command('report'), true)
      .description('a report batch with a job array: each task reports on a consecutive slice of the logs; the parts are joined in input order (one CSV header, NDJSON lines)')
      .argument('<args...>', 'the arguments of iolens report: logs, folders, globs, --from FILE, --csv/--json, --config …')
      .action(async (args: string[], f: SlurmFlags) => {
        const p = await parseAs('report', args);
        reject(p.flags, 'report', ['--html', '--markdown', '--export-dir', '--force']);
        if (p.positional.includes('-') || p.flags.from === '-') throw new UserError('standard input cannot be shared out to tasks: give files, folders or --from FILE');
        const { resolveInputs } = await import('./report.js');
        const logs = resolveInputs(p.positional, p.flags.from as string | undefined);
        const good = logs.filter((l) => !l.error);
        for (const l of good) {
          if (/[\r\n]/.test(l.path) || l.path !== l.path.trim() || l.path.startsWith('#')) throw new UserError(`${JSON.stringify(l.path)}: a path with line breaks, surrounding blanks or a leading # cannot go in a task's list`);
        }
        if (good.length === 0) throw new UserError('no readable log to report on');
        const tasks = Math.min(wholeNumber('--tasks', f.tasks, 1, 1_000_000), good.length);
        const { contiguousSlices } = await import('../../pipeline/trace/shards.js');
        const sizes = good.map((l) => {
          try {
            return statSync(l.path).size;
          } catch {
            return 0;
          }
        });
        const lists = contiguousSlices(sizes, tasks).map((s) => good.slice(s.from, s.to).map((l) => l.path));
        const format: OutputFormat = p.flags.json ? 'json' : p.flags.csv ? 'csv' : 'terminal';
        const walkErrors = logs.filter((l) => l.error).map((l) => `iolens: ${oneLine(`${l.path}: ${l.error}`)}`);
        const forward = p.forward.filter((x) => !x.startsWith('--from='));
        const report = { chunks: lists.map((l) => l.length), walkErrors, mode: p.flags.drishti ? ('drishti' as const) : ('default' as const) };
        await launch({ kind: 'report', inputs: [], forward, output: f.out, format, tasks, report, lists }, f);
      });

    top
      .command('status')
      .description('the state of a run: rounds, tasks, merge, result (--follow: until it ends)')
      .argument('<workdir>', 'the work folder of the run')
      .option('--follow', 'follow the run to its end, one line per change, then print its output')
      .option('--poll <seconds>', 'seconds between looks at the queue', '10')
      .action(async (workdir: string, o: { follow?: boolean; poll: string }) => {
        const plan = loadPlan(workdir);
        if (o.follow) return followToEnd(plan, seconds('--poll', o.poll));
        for (const line of describeRun(plan)) say(line);
      });

    top
      .command('resume')
      .description('restart a run whose chain of jobs stopped: resubmit the tasks without a complete part and a merge job')
      .argument('<workdir>', 'the work folder of the run')
      .option('--poll <seconds>', 'seconds between looks at the queue', '10')
      .option('--no-follow', 'submit and return')
      .action(async (workdir: string, o: { poll: string; follow: boolean }) => {
        const plan = loadPlan(workdir);
        const res = result(plan);
        if (res?.ok) throw new UserError(`${workdir}: the run already finished: ${res.message}`);
        const ours = new Set(rounds(plan).flatMap((r) => [r.array, r.finish]).filter(Boolean));
        const active = queue().filter((e) => ours.has(e.arrayJob) && /^(PENDING|RUNNING|COMPLETING|CONFIGURING|SUSPENDED|REQUEUED)/.test(e.state));
        if (active.length > 0) throw new UserError(`${workdir}: jobs of this run are still queued or running (${[...new Set(active.map((e) => e.arrayJob))].join(', ')}); follow it with iolens slurm status ${workdir} --follow`);
        // The failed outcome is kept beside the new attempt.
        if (res) renameSync(files.result(plan.workdir), `${files.result(plan.workdir)}.failed-${res.finished}`);
        const { missing } = missingTasks(plan);
        const out = resubmit(plan, missing, 'resumed by hand', true);
        if (out.submitted === false) throw new SlurmError(out.line);
        if (o.follow) await followToEnd(plan, seconds('--poll', o.poll));
        else say(out.line);
      });

    top
      .command('cancel')
      .description('cancel every job of a run and mark it cancelled')
      .argument('<workdir>', 'the work folder of the run')
      .action(async (workdir: string) => {
        const plan = loadPlan(workdir);
        if (!result(plan)) failRun(plan, 'cancelled with iolens slurm cancel');
        const ids = [...new Set(rounds(plan).flatMap((r) => [r.array, r.finish]).filter(Boolean))];
        cancel(ids);
        say(`cancelled ${ids.length} jobs of ${workdir}`);
      });

    top
      .command('finish')
      .description("the merge job's step (finish.sh): check the parts, resubmit missing tasks, or merge")
      .argument('<workdir>', 'the work folder of the run')
      .action(async (workdir: string) => {
        const plan = loadPlan(workdir);
        let out;
        try {
          out = await finish(workdir);
        } catch (err) {
          // Checks and merges that fail fail the run (result.json says why); a failed submission does not (above).
          const msg = err instanceof Error ? err.message : String(err);
          out = failRun(plan, `the merge job failed: ${oneLine(msg)}`);
        }
        say(out.line);
        process.exitCode = out.exit;
      });

    for (const c of top.commands) c.exitOverride();
    top.exitOverride();
  },
};

export default slurm;
