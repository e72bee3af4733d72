import { basename } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { IOLensError, PROBLEMS, type Comparison, type Report } from '../contract/index.js';
import { compareInputs } from '../compare/run.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { diagnoseTrace } from '../pipeline/diagnose-trace.js';
import { extract } from '../pipeline/extract.js';
import { toolVersion } from '../pipeline/resources.js';
import { StoreLeases } from '../store/live.js';
import { JobStore, SORT_COLUMNS } from '../serve/store-api.js';
import { learnedFor } from '../serve/learned.js';
import { compareVerdict } from '../render/compare.js';
import { checkJobsModel, loadBundle, type ModelBundle } from '../models/bundle.js';

/**
 * `iolens mcp`: IOLens's own numbers as Model Context Protocol tools, so that an assistant answers I/O questions from
 * them instead of guessing. Read-only: the tools read the logs and traces they are given and the job store
 * (opened read-only); nothing is written. Every answer is the JSON of the same contract the CLI prints (a report's
 * time model and findings, a comparison, store rows), trimmed to what a question needs, with the time semantics named.
 */
export interface McpOptions {
  /** A job store for `jobs` (opened read-only). */
  readonly db?: string;
  /** A model file of `iolens train` for `explain`. */
  readonly model?: string;
}

export interface IolensMcp {
  readonly server: McpServer;
  close(): Promise<void>;
}

/** A finding as the tools give it: what, how bad, what it costs and what fixing it saves (seconds, and which semantics), what to do. */
function finding(f: Report['insights'][number]) {
  return {
    code: f.code,
    level: f.level,
    problem: f.problem ?? null,
    message: f.message,
    cost: f.cost ? { seconds: f.cost.seconds, semantics: f.cost.semantics, shareOfIoTime: f.cost.ioShare, shareOfRun: f.cost.runShare, basis: f.cost.basis } : null,
    savings: f.savings ? { seconds: f.savings.seconds, low: f.savings.low, high: f.savings.high, semantics: f.savings.semantics, basis: f.savings.basis, doneWell: f.savings.reference } : null,
    details: f.details.slice(0, 5).map((d) => d.message),
    recommendations: f.recommendations.map((r) => r.text),
  };
}

/** The part of a report a question about one run needs: where the time went, and the findings, the most seconds saved first. */
export function reportDigest(r: Report, levels: readonly string[] = ['HIGH', 'WARN']) {
  return {
    input: r.input.paths,
    job: { id: r.job.jobId, application: r.job.exe, processes: r.job.processes, runTimeSeconds: r.io.runTime },
    io: {
      ioTimeSlowestRankSeconds: r.io.ioTime,
      ioTimeSummedOverRanksSeconds: r.io.cumulativeIoTime,
      shareOfRun: r.io.ioShare,
      bytes: r.io.bytes,
      whereTheTimeWent: r.io.breakdown.slice(0, 8).map((b) => ({ layer: b.layer, op: b.op, slowestRankSeconds: b.seconds, summedSeconds: b.cumulativeSeconds })),
    },
    verdict: r.verdict ?? null,
    findings: r.insights.filter((f) => levels.includes(f.level)).map(finding),
  };
}

/** The part of a comparison a question needs: the verdict, the deltas and the causes ranked by seconds. */
function comparisonDigest(c: Comparison) {
  return {
    base: c.base.name,
    others: c.others.map((o) => ({
      name: o.run.name,
      verdict: compareVerdict(c.base, o),
      runTimeDeltaSeconds: o.timeDelta,
      ioTimeDeltaSlowestRankSeconds: o.ioTimeDelta,
      ioTimeDeltaSummedSeconds: o.cumulativeIoTimeDelta,
      causes: o.causes.slice(0, 10).map((k) => ({ kind: k.kind, code: k.code, problem: k.problem, change: k.change, seconds: k.seconds, text: k.text })),
      warnings: o.warnings,
    })),
    failed: c.failed,
  };
}

/** A path argument: at most PATH_MAX (4,096) characters, so that every message the schemas accept fits in MAX_MESSAGE_BYTES. */
const PATH = z.string().min(1).max(4096);

const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value, null, 1) }] });

/**
 * A tool's failure as the protocol carries it: one line, the error flag set (never a stack), and nothing quoted: a
 * reader's message may quote the first bytes of the file it was given ("found \"root:*:…\""), and a file any path
 * names is not to be shown through the tools.
 */
export function failure(err: unknown) {
  const message = err instanceof IOLensError || err instanceof Error ? err.message.split('\n')[0] : String(err);
  const unquoted = message.replace(/"(?:[^"\\]|\\.)*"?/g, '"…"').replace(/'(?:[^'\\]|\\.)*'/g, "'…'");
  return { content: [{ type: 'text' as const, text: unquoted.slice(0, 1000) }], isError: true };
}

async function guarded<T>(fn: () => Promise<T> | T) {
  try {
    return text(await fn());
  } catch (err) {
    return failure(err);
  }
}

/** Builds the server with its tools; the caller connects a transport (stdio for `iolens mcp`). */
export async function createMcpServer(o: McpOptions = {}): Promise<IolensMcp> {
  let store: StoreLeases | null = null;
  let jobs: JobStore | null = null;
  if (o.db) {
    // (opened per call, so that an ingest can write the store between two)
    store = await StoreLeases.open(o.db, false);
    jobs = new JobStore(store, false);
  }
  let model: ModelBundle | null = null;
  if (o.model) {
    model = loadBundle(o.model);
    checkJobsModel(model);
  }
  const server = new McpServer({ name: 'iolens', version: toolVersion() }, { capabilities: { tools: {} } });

  server.registerTool(
    'report',
    {
      title: 'Diagnose a Darshan log',
      description:
        "Where one job's I/O time went and what to fix: the time model (I/O time on the slowest rank and summed over ranks, by layer and operation), the verdict, and the findings (problem, level, cost in seconds with its semantics, what fixing it would save with its range and basis, recommendations), the most seconds saved first. The same diagnosis as `iolens report --json`.",
      inputSchema: { path: PATH.describe('path of a Darshan log (.darshan, or compressed whole: .darshan.gz/.bz2)'), all: z.boolean().optional().describe('also list INFO and OK findings') },
    },
    async ({ path, all }) => guarded(() => reportDigest(diagnoseLog(path, { snippets: false }), all ? ['HIGH', 'WARN', 'INFO', 'OK'] : ['HIGH', 'WARN'])),
  );

  server.registerTool(
    'trace_summary',
    {
      title: 'Diagnose a trace',
      description:
        'The same diagnosis from a trace (a DXT Darshan log, a Recorder folder, DFTracer .pfw/.pfw.gz files): the time model, the verdict and the findings of the trace checks, the most seconds saved first, as `iolens trace --json` computes them.',
      inputSchema: { paths: z.array(PATH).min(1).max(1000).describe('the trace: one folder, or its files (at most 1,000)') },
    },
    async ({ paths }) => guarded(async () => reportDigest(await diagnoseTrace(paths))),
  );

  server.registerTool(
    'compare',
    {
      title: 'Why was one run slower than another',
      description:
        'Compares runs (Darshan logs or traces) with the first as the base: the run-time and I/O-time differences, and the causes (findings that appear, vanish or change cost; settings that changed) ranked by the seconds they cost, as `iolens compare --json`.',
      inputSchema: { base: PATH.describe('the base run'), others: z.array(PATH).min(1).max(32).describe('the runs compared with it (at most 32)') },
    },
    async ({ base, others }) => guarded(async () => comparisonDigest(await compareInputs([base, ...others], { toolVersion: toolVersion() }))),
  );

  if (jobs) {
    const store = jobs;
    server.registerTool(
      'jobs',
      {
        title: 'Find jobs in the job store',
        description: `Jobs of the facility's job store (${basename(o.db!)}), filtered and sorted: application, processes, run time, bytes, I/O time on the slowest rank and its share of the run, throughput, worst level and problems. io_time is the slowest rank's, io_time_cumulative summed over ranks.`,
        inputSchema: {
          q: z.string().max(200).optional().describe('substring of the executable, path, application or job id'),
          app: z.string().max(200).optional().describe('the application'),
          problem: z.enum(PROBLEMS).optional().describe('jobs with this problem (HIGH or WARN)'),
          sort: z.enum(SORT_COLUMNS).optional(),
          order: z.enum(['asc', 'desc']).optional(),
          limit: z.number().int().min(1).max(100).optional().describe('at most this many (default 20)'),
          offset: z.number().int().min(0).max(1e9).optional(),
        },
      },
      async (f) => guarded(() => store.jobs({ ...f, limit: f.limit ?? 20 })),
    );
    server.registerTool(
      'job',
      {
        title: 'One job of the store',
        description: "One job's stored row and its clusters, by its hash (from `jobs`).",
        inputSchema: { hash: z.string().regex(/^[0-9a-f]{64}$/).describe('the job hash') },
      },
      async ({ hash }) =>
        guarded(async () => {
          const j = await store.job(hash);
          if (!j) throw new Error(`no job ${hash} in the store`);
          return { row: j.row, clusters: j.clusters };
        }),
    );
  }

  if (model) {
    const bundle = model;
    const name = basename(o.model!);
    server.registerTool(
      'explain',
      {
        title: "Explain a job's predicted throughput",
        description:
          "The learned diagnosis of one log with the model given to `iolens mcp --model`: predicted against measured throughput, and the problems the model blames (exact SHAP, zero counters get no blame), with whether the report's findings corroborate them.",
        inputSchema: { path: PATH.describe('path of a Darshan log') },
      },
      async ({ path }) =>
        guarded(() => {
          const x = extract(path, { charts: false });
          const section = learnedFor(bundle, name, x.row as Record<string, unknown>, x.report?.insights ?? []);
          if (!section) throw new Error(`${path}: the model ${name} cannot explain this log (its inputs are missing)`);
          return section;
        }),
    );
  }

  return {
    server,
    async close() {
      await server.close();
      await store?.close();
    },
  };
}
