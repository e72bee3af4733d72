import { Option, type Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';
import { FdSink } from '../../util/output.js';
import { analyzeTrace } from '../../trace/analyze.js';
import { TraceInputError } from '../../trace/errors.js';
import { renderCsv } from '../../trace/render/csv.js';
import { renderJson } from '../../trace/render/json.js';
import { renderTerminal } from '../../trace/render/terminal.js';
import { BUILTIN_RULES } from '../../trace/rules/builtin/index.js';
import type { Rule } from '../../trace/rules/types.js';
import { loadRuleFile, RuleFileError } from '../../trace/rules/yaml.js';
import type { MetricId } from '../../trace/score.js';
import { DEFAULT_VIEWS, parseView } from '../../trace/views.js';
import { partsCubeSource, writeTracePart } from '../../trace/shards.js';
import { parseShard } from '../../store/walk.js';

interface TraceFlags {
  json?: boolean;
  csv?: boolean;
  views?: string;
  metric: MetricId;
  threshold?: string;
  granularity?: string;
  layers?: string;
  rules?: string;
  builtinRules: boolean;
  top: string;
  smallSize: string;
  minTimeShare: string;
  threads?: string;
  color?: boolean;
  maxInflate?: string;
  shard?: string;
  cubeOut?: string;
  cubeParts?: string;
}

function num(flag: string, v: string, min = 0): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new UserError(`${flag}: expected a number ≥ ${min}, got "${v}"`);
  return n;
}

/** Parses "1s", "500ms", "2.5" (seconds), "1m". */
function duration(flag: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*(us|µs|ms|s|m|min|h)?$/.exec(v.trim());
  if (!m) throw new UserError(`${flag}: expected a duration like 1s, 500ms or 2m, got "${v}"`);
  const k: Record<string, number> = { us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, min: 60, h: 3600 };
  const s = Number(m[1]) * k[m[2] ?? 's'];
  if (!(s > 0)) throw new UserError(`${flag}: must be positive`);
  return s;
}

/** Parses "1MiB", "64k", "4096". */
function size(flag: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?$/i.exec(v.trim());
  if (!m) throw new UserError(`${flag}: expected a size like 1MiB, 64KiB or 4096, got "${v}"`);
  const p = { '': 0, k: 1, m: 2, g: 3, t: 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.round(Number(m[1]) * 1024 ** p);
}

const trace: CommandModule = {
  name: 'trace',
  register(program: Command) {
    withMaxInflate(program.command('trace'))
      .description('find I/O bottlenecks in DXT, Recorder or DFTracer traces from every view (file, process, time, …) with severities and reasons (see docs/trace.md)')
      .argument('<paths...>', 'Recorder trace folder, Recorder Parquet folder/files (WisIO recorder2parquet), DFTracer .pfw/.pfw.gz files or folder, a Darshan log with DXT, or a .tar/.tar.gz of any of these')
      .option('--json', 'print the report as JSON (schema in docs/trace.md)')
      .option('--csv', 'print one CSV row per listed bottleneck')
      .option('--views <list>', `comma-separated views, e.g. file,proc,time,proc>file (default: ${DEFAULT_VIEWS.join(',')})`)
      .addOption(new Option('--metric <metric>', 'severity metric').choices(['iops_slope', 'time', 'bw']).default('iops_slope'))
      .option('--threshold <n>', 'metric threshold (default: 45 for iops_slope [degrees], 5 for time [%], 100 for bw [MiB/s])')
      .option('--granularity <duration>', 'time-window width, e.g. 1s, 100ms (default: 1/2/5×10^k s giving ≤ 100 windows)')
      .option('--layers <list>', 'layers to analyze: posix,stdio,mpiio,hdf5,other,all (default: posix,stdio; MPI-IO/HDF5 if no POSIX calls)')
      .option('--rules <file.yaml>', 'extra rules from a YAML file (format in docs/trace.md)')
      .option('--no-builtin-rules', 'do not use the built-in rules')
      .option('--top <n>', 'bottlenecks listed per view (0 = all)', '10')
      .option('--small-size <bytes>', 'requests smaller than this are "small"', '1MiB')
      .option('--min-time-share <fraction>', 'records below this share of the I/O time are never bottlenecks', '0.001')
      .option('--threads <n>', 'worker threads (default: automatic, used for large traces)')
      .option('--no-color', 'plain terminal output')
      // Steps of a sharded run (iolens slurm trace, docs/scale-out.md): a shard's partial cube, and the report of them all.
      .addOption(new Option('--shard <i/N>', 'read only shard i of N of the trace (with --cube-out)').hideHelp())
      .addOption(new Option('--cube-out <file>', 'write the shard\'s partial cube to <file> instead of a report').hideHelp())
      .addOption(new Option('--cube-parts <dir>', 'report from the partial cubes in <dir> instead of reading the trace').hideHelp())
      .action(async (paths: string[], f: TraceFlags) => {
        if (f.json && f.csv) throw new UserError('--json and --csv cannot be combined');
        const views = f.views ? f.views.split(',').map((s) => s.trim()).filter(Boolean) : [...DEFAULT_VIEWS];
        for (const v of views) {
          try {
            parseView(v);
          } catch (err) {
            throw new UserError(`--views: ${(err as Error).message}`);
          }
        }
        const rules: Rule[] = f.builtinRules ? [...BUILTIN_RULES] : [];
        try {
          if (f.rules) rules.push(...loadRuleFile(f.rules, new Set(rules.map((r) => r.id))));
        } catch (err) {
          if (err instanceof RuleFileError) throw new UserError(err.message);
          throw err;
        }
        const opts = {
          views,
          metric: f.metric,
          ...(f.threshold !== undefined ? { threshold: num('--threshold', f.threshold) } : {}),
          ...(f.granularity !== undefined ? { granularity: duration('--granularity', f.granularity) } : {}),
          ...(f.layers !== undefined ? { layers: f.layers.split(',') } : {}),
          ...(f.threads !== undefined ? { threads: Math.floor(num('--threads', f.threads, 0)) } : {}),
          minTimeShare: num('--min-time-share', f.minTimeShare),
          smallBytes: size('--small-size', f.smallSize),
          rules,
          top: Math.floor(num('--top', f.top)),
          limits: { maxInflate: maxInflateOption(f.maxInflate) },
        };
        if (f.metric === 'iops_slope' && opts.threshold !== undefined && opts.threshold >= 90) throw new UserError('--threshold: the IOPS slope threshold must be below 90 degrees');
        if (f.metric === 'time' && opts.threshold !== undefined && opts.threshold >= 100) throw new UserError('--threshold: the time-share threshold must be below 100 (%)');
        if (f.metric === 'bw' && opts.threshold !== undefined && opts.threshold <= 0) throw new UserError('--threshold: the bandwidth threshold must be above 0 MiB/s');
        if ((f.shard === undefined) !== (f.cubeOut === undefined)) throw new UserError('--shard and --cube-out go together');
        let analysis;
        try {
          if (f.shard !== undefined && f.cubeOut !== undefined) {
            await writeTracePart(paths, opts, parseShard(f.shard), f.cubeOut);
            return;
          }
          analysis = await analyzeTrace(paths, f.cubeParts !== undefined ? { ...opts, cubeSource: partsCubeSource(f.cubeParts, paths, opts) } : opts);
        } catch (err) {
          if (err instanceof TraceInputError) throw new UserError(err.message);
          throw err;
        }
        const out = new FdSink(1);
        if (f.json) out.write(renderJson(analysis.report));
        else if (f.csv) renderCsv(analysis.report, (s) => out.write(s));
        else renderTerminal(analysis.report, (s) => out.write(s), f.color !== false && !!process.stdout.isTTY && !process.env.NO_COLOR);
        out.flush();
      });
  },
};

export default trace;
