import { createRequire } from 'node:module';

// node:child_process is loaded only when Slurm is asked (loading it costs every start of the CLI about 3 ms).
const lazyRequire = createRequire(import.meta.url);

/** How the pipeline learns a job's compute-node count (needed by the aggregator checks M08–M10). */
export interface NodeOptions {
  /** The count, when the caller knows it (`--nodes`). Wins over everything else. */
  readonly nodes?: number | null;
  /**
   * Ask Slurm's `sacct` for the job id of the log (only when set: a log from another system must not pick up
   * another job's node count). The answer is used only when that job's start..end contains the log's start time
   * (and, with `cluster`, only from that cluster).
   */
  readonly sacct?: boolean | { readonly cluster?: string; readonly command?: string };
}

export interface NodeAnswer {
  readonly count: number | null;
  readonly source: 'option' | 'sacct' | null;
  /** Why sacct's answer was not used (a report note), when it was asked. */
  readonly note: string | null;
}

/** Slack allowed between the log's start and the scheduler's job window (clocks, staging). */
const WINDOW_SLACK_SECONDS = 120;

/** sacct's local time `2024-03-01T10:00:00` (or `Unknown`) → seconds since 1970, or NaN. */
function sacctTime(s: string): number {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(s)) return NaN;
  return new Date(s).getTime() / 1000;
}

/**
 * The node count of the job that wrote a log: `nodes` when given, else Slurm's accounting when asked and it
 * matches the log, else unknown.
 */
export function resolveNodes(jobId: string, startEpoch: number, opts: NodeOptions): NodeAnswer {
  if (opts.nodes !== undefined && opts.nodes !== null) return { count: opts.nodes, source: 'option', note: null };
  if (!opts.sacct) return { count: null, source: null, note: null };
  if (!/^\d+$/.test(jobId) || jobId === '0') return { count: null, source: null, note: `sacct was not asked: the log has no scheduler job id (${jobId || 'none'})` };
  const cfg = typeof opts.sacct === 'object' ? opts.sacct : {};
  const args = ['--jobs', jobId, '--allocations', '--noheader', '--parsable2', '--format=JobIDRaw,NNodes,Start,End,Cluster'];
  if (cfg.cluster) args.push('--clusters', cfg.cluster);
  let out: string;
  try {
    const { execFileSync } = lazyRequire('node:child_process') as typeof import('node:child_process');
    out = execFileSync(cfg.command ?? 'sacct', args, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { count: null, source: null, note: code === 'ENOENT' ? 'sacct is not installed here: the node count is unknown' : `sacct failed (${code ?? 'error'}): the node count is unknown` };
  }
  const rows = out
    .split('\n')
    .map((l) => l.split('|'))
    .filter((f) => f.length >= 5 && f[0] === jobId);
  if (rows.length === 0) return { count: null, source: null, note: `sacct knows no job ${jobId}${cfg.cluster ? ` on cluster ${cfg.cluster}` : ''}: the node count is unknown` };
  const [, nnodes, start, end, cluster] = rows[0];
  const t0 = sacctTime(start);
  const t1 = sacctTime(end);
  const inside = Number.isFinite(t0) && startEpoch >= t0 - WINDOW_SLACK_SECONDS && (!Number.isFinite(t1) || startEpoch <= t1 + WINDOW_SLACK_SECONDS);
  if (!inside) {
    return {
      count: null,
      source: null,
      note: `sacct's job ${jobId}${cluster ? ` (cluster ${cluster})` : ''} ran ${start} to ${end}, which does not contain this log's start: it is another job, so the node count is unknown`,
    };
  }
  const n = Number(nnodes);
  if (!Number.isInteger(n) || n <= 0) return { count: null, source: null, note: `sacct gave no node count for job ${jobId}` };
  return { count: n, source: 'sacct', note: null };
}
