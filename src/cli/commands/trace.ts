import { Option, type Command } from 'commander';
import type { CommandModule } from './command.js';
import { readConfigFile } from '../config-file.js';
import { UserError } from '../errors.js';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';
import { FdSink } from '../../util/output.js';
import { diagnoseTrace, type DiagnoseTraceOptions } from '../../pipeline/diagnose-trace.js';
import { TRACE_CHECKS } from '../../checks/trace/registry.js';
import type { AnyCheck } from '../../checks/types.js';
import { METRICS, type MetricId } from '../../trace/score.js';
import { DEFAULT_VIEWS, parseView } from '../../trace/view-catalogue.js';
import { RENDERERS } from '../../render/registry.js';
import { textWidth, WIDTH_FLAG } from '../width-option.js';
import { partsCubeSource, writeTracePart } from '../../pipeline/trace/shards.js';
import { parseShard } from '../../store/walk.js';

interface TraceFlags {
  json?: boolean;
  csv?: boolean;
  charts?: boolean;
  views?: string;
  metric: MetricId;
  threshold?: string;
  granularity?: string;
  layers?: string;
  rules?: string;
  builtinRules: boolean;
  top: string;
  smallSize?: string;
  minTimeShare?: string;
  config?: string;
  threads?: string;
  color?: boolean;
  width?: string;
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
      .description('find I/O bottlenecks in DXT, Recorder or DFTracer traces from every view (file, process, time, …): flagged records leveled by what they cost, and trace checks (T01…) explaining them (see docs/trace.md)')
      .argument('<paths...>', 'Recorder trace folder, Recorder Parquet folder/files (WisIO recorder2parquet), DFTracer .pfw/.pfw.gz files or folder, a Darshan log with DXT, or a .tar/.tar.gz of any of these')
      .option('--json', 'print the report as JSON (the report schema of docs/report-schema.md, with its trace section)')
      .option('--csv', 'print one CSV row per listed flagged record')
      .option('--charts', "with --json: add the charts section (the trace's timeline; docs/serve.md)")
      .option('--views <list>', `comma-separated views, e.g. file,proc,time,proc>file (default: ${DEFAULT_VIEWS.join(',')})`)
      .addOption(new Option('--metric <metric>', 'metric that flags records').choices(Object.keys(METRICS)).default('iops_slope'))
      .option('--threshold <n>', 'metric threshold (default: 45 for iops_slope [degrees], 5 for time [%], 100 for bw [MiB/s])')
      .option('--granularity <duration>', 'time-window width, e.g. 1s, 100ms (default: 1/2/5×10^k s giving ≤ 100 windows)')
      .option('--layers <list>', 'layers to analyze: posix,stdio,mpiio,hdf5,other,all (default: posix,stdio; MPI-IO/HDF5 if no POSIX calls)')
      .option('--rules <file.yaml>', 'extra checks from a YAML rule file (format in docs/trace.md)')
      .option('--no-builtin-rules', 'do not run the built-in trace checks (T01…)')
      .option('--top <n>', 'flagged records listed per view (0 = all)', '10')
      .option('--small-size <bytes>', 'requests smaller than this are "small" (sets the small_bytes threshold; default 1MiB)')
      .option('--min-time-share <fraction>', 'records below this share of the I/O time are never flagged (sets trace_min_time_share; default 0.001)')
      .option('--config <file>', 'thresholds (small_bytes, trace_*) and check settings (JSON, as for iolens report)')
      .option('--threads <n>', 'worker threads (default: automatic, used for large traces)')
      .option('--no-color', 'plain terminal output')
      .option(...WIDTH_FLAG)
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
        const config = await readConfigFile(f.config);
        const knobs = { ...config.knobs };
        if (f.smallSize !== undefined) knobs.small_bytes = size('--small-size', f.smallSize);
        if (f.minTimeShare !== undefined) knobs.trace_min_time_share = num('--min-time-share', f.minTimeShare);
        const reserved = new Set(TRACE_CHECKS.flatMap((c) => [c.meta.code, c.meta.slug]));
        // The rule loader brings the YAML parser and zod: loaded only for --rules (they cost start-up, and the few MB
        // of heap they add made V8 run ~90 full collections instead of ~10 while one thread read 5 M DFTracer events).
        const userChecks: AnyCheck[] = f.rules ? (await import('../../checks/rules/yaml.js')).loadRuleFile(f.rules, reserved) : [];
        const threshold = f.threshold !== undefined ? num('--threshold', f.threshold) : undefined;
        const bad = threshold !== undefined ? METRICS[f.metric].invalidThreshold(threshold) : null;
        if (bad) throw new UserError(`--threshold: ${bad}`);
        if ((f.shard === undefined) !== (f.cubeOut === undefined)) throw new UserError('--shard and --cube-out go together');
        const progress = traceProgress(!!process.stderr.isTTY, Number(process.env.IOLENS_PROGRESS_SECONDS) || 10);
        const opts: DiagnoseTraceOptions = {
          views,
          metric: f.metric,
          ...(threshold !== undefined ? { threshold } : {}),
          ...(f.granularity !== undefined ? { granularity: duration('--granularity', f.granularity) } : {}),
          ...(f.layers !== undefined ? { layers: f.layers.split(',') } : {}),
          ...(f.threads !== undefined ? { threads: Math.floor(num('--threads', f.threads, 0)) } : {}),
          top: Math.floor(num('--top', f.top)),
          config: { ...config, knobs },
          builtinChecks: f.builtinRules,
          userChecks,
          limits: { maxInflate: maxInflateOption(f.maxInflate) },
          charts: !!f.charts,
          onProgress: progress.update,
        };
        // Steps of a sharded run (iolens slurm trace): one shard's partial cube, or the report of all of them.
        if (f.shard !== undefined && f.cubeOut !== undefined) {
          await writeTracePart(paths, opts, parseShard(f.shard), f.cubeOut);
          return;
        }
        const report = await diagnoseTrace(paths, f.cubeParts !== undefined ? { ...opts, cubeSource: partsCubeSource(f.cubeParts, paths, opts) } : opts);
        progress.finish();
        const out = new FdSink(1);
        const format = f.json ? 'json' : f.csv ? 'csv' : 'terminal';
        const width = format === 'terminal' ? textWidth(f.width) : undefined;
        out.write(RENDERERS[format](report, { color: format === 'terminal' && f.color !== false && !!process.stdout.isTTY && !process.env.NO_COLOR, ...(width ? { width } : {}) }));
        out.flush();
      });
  },
};

/**
 * Progress of reading a long trace on stderr: nothing for the first second, then on a terminal one line redrawn a
 * few times a second, elsewhere a plain line every `everySeconds`.
 */
function traceProgress(tty: boolean, everySeconds: number): { update: (events: number) => void; finish: () => void } {
  const start = Date.now();
  let last = start;
  let shown = false;
  const line = (events: number) => {
    const secs = Math.max(0.001, (Date.now() - start) / 1000);
    return `iolens: reading the trace: ${events.toLocaleString('en-US')} events (${Math.round(events / secs).toLocaleString('en-US')} events/s)`;
  };
  return {
    update(events: number) {
      const now = Date.now();
      if (now - start < Math.min(1000, everySeconds * 1000)) return;
      if (tty) {
        if (now - last < 200) return;
        process.stderr.write(`\r${line(events)}\x1b[K`);
      } else {
        if (now - last < everySeconds * 1000) return;
        process.stderr.write(`${line(events)}\n`);
      }
      last = now;
      shown = true;
    },
    finish() {
      if (shown && tty) process.stderr.write('\r\x1b[K');
    },
  };
}

export default trace;
