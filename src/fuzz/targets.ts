import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isIOLensError } from '../contract/errors.js';
import type { ReadLimits } from '../util/limits.js';

/**
 * What the fuzzer runs, one input at a time, inside a worker thread (see harness.ts). An input is a set of named
 * files (one for a log, a trace file, a rule file, a model file or a raw HTTP request; several for a Recorder
 * folder). Running it must end in a reading or in one of the library's errors (`IOLensError`): anything else is a
 * finding. For the web service an answer is the outcome: a 5xx other than 503/504, an answer without the security
 * headers or one naming a server path is a finding.
 */
export type FuzzInput = Record<string, Uint8Array>;

export const TARGET_NAMES = ['darshan', 'dxt', 'dftracer', 'recorder', 'parquet', 'tar', 'rules', 'model', 'http', 'mcp'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

/**
 * Budgets the fuzzer gives the library: smaller than the defaults so that each input stays quick; what is fuzzed is
 * that the budgets bound the work, whatever the input.
 */
export const FUZZ_LIMITS: ReadLimits = { maxInflate: 64 << 20, maxLineBytes: 4 << 20, maxExpandedCalls: 1 << 22 };

/** Output of the printers, counted and dropped; more than this many characters for one small input is a finding. */
const MAX_OUTPUT_CHARS = 256 << 20;

class CountingOut {
  chars = 0;
  write(text: string): void {
    this.chars += text.length;
    if (this.chars > MAX_OUTPUT_CHARS) throw new Error(`printer output passed ${MAX_OUTPUT_CHARS} characters for one input`);
  }
}

export interface RunOutcome {
  ok: boolean;
  /** the error's class name and message, when it failed */
  error?: string;
  /** true: the error is one of the library's (an expected outcome for hostile input) */
  typed?: boolean;
  stack?: string;
}

async function runDarshan(bytes: Uint8Array): Promise<void> {
  const { DarshanLog } = await import('../formats/darshan/log.js');
  const { MODULES } = await import('../formats/darshan/modules/registry.js');
  const { printParserText } = await import('../formats/darshan/print/parser-text.js');
  const { printDxtText } = await import('../formats/darshan/print/dxt-text.js');
  const { printPerfText } = await import('../formats/darshan/print/perf-text.js');
  const { printJsonDump } = await import('../formats/darshan/print/json-dump.js');
  const { buildReport } = await import('../report/build-report.js');
  const { RENDERERS } = await import('../render/registry.js');
  const { logToRow } = await import('../store/row.js');
  const log = DarshanLog.fromBytes(bytes, 'fuzz.darshan', { maxInflate: FUZZ_LIMITS.maxInflate });
  for (const m of MODULES) log.decode(m.id);
  const out = new CountingOut();
  // parse (all three outputs) and the JSON dump
  printParserText(log, out, () => {});
  await printDxtText(log, out, () => {});
  printPerfText(log, out, () => {});
  printJsonDump(log, out, { dxt: true });
  // report, in both modes, rendered
  for (const mode of ['default', 'drishti'] as const) {
    const rep = buildReport(log, { mode, logName: 'fuzz.darshan' });
    out.write(RENDERERS.terminal(rep, { issuesOnly: false, showCodes: true, verbose: true, fullPath: true, allThresholds: true, width: 100, color: false }));
    out.write(RENDERERS.csv(rep));
  }
  // the ingest row (never throws: a bad log is a row error)
  const row = logToRow({ path: 'fuzz.darshan', bytes }, { maxInflate: FUZZ_LIMITS.maxInflate });
  if (!row.ok && /internal|TypeError|RangeError/.test(row.error)) throw new Error(`ingest row error looks internal: ${row.error}`);
}

async function runTrace(dir: string, input: FuzzInput, target: TargetName): Promise<void> {
  const { analyzeTrace } = await import('../pipeline/trace/analyze.js');
  const { DEFAULT_VIEWS } = await import('../trace/view-catalogue.js');
  const { defaultConfig } = await import('../config/defaults.js');
  const names = Object.keys(input);
  const paths = target === 'recorder' ? [dir] : names.map((n) => join(dir, n));
  const config = defaultConfig();
  await analyzeTrace(paths, {
    views: [...DEFAULT_VIEWS, 'proc>file'],
    metric: 'iops_slope',
    config: { ...config, knobs: { ...config.knobs, trace_min_time_share: 0 } },
    top: 0,
    threads: 1,
    limits: FUZZ_LIMITS,
  });
}

async function runRules(path: string): Promise<void> {
  const { loadRuleFile } = await import('../checks/rules/yaml.js');
  const { METRIC_COLUMNS } = await import('../trace/views.js');
  const { runChecks } = await import('../checks/run-checks.js');
  const { FactContext } = await import('../facts/fact-context.js');
  const { TimeModelBuilder } = await import('../facts/time-model.js');
  const { defaultConfig } = await import('../config/defaults.js');
  const rules = loadRuleFile(path);
  // evaluate every rule on a few records (zeros, ordinary values, extremes) in two views, all flagged
  const records = [0, 1.5, -1e308, Number.NaN].map((k) => Object.fromEntries(METRIC_COLUMNS.map((c, i) => [c, k * (i + 1)])));
  const views = (['file', 'proc>file'] as const).map((name) => {
    const dims = name === 'file' ? (['file'] as const) : (['proc', 'file'] as const);
    const key = name === 'file' ? { file: '/scratch/a' } : { proc: '0', file: '/scratch/a' };
    return { name, dims, parent: null, records: records.map((m) => ({ view: name, dims, key, metrics: m as never, score: { metric: 'iops_slope', value: 60, badness: 0.5 }, level: 'HIGH' as const })) };
  });
  const out = new CountingOut();
  const facts = FactContext.fromValues({ 'io.time': new TimeModelBuilder().build({ runTime: 1, processes: 1, source: 'trace' }) });
  const flagged = views.flatMap((v) => v.records);
  const run = runChecks(rules, facts, { mode: 'default', config: defaultConfig(), env: { nodes: null, applicationHints: null }, views: { views, flagged } });
  const failed = run.outcomes.find((o) => o.status === 'error');
  if (failed) throw new Error(`rule ${failed.code} failed: ${failed.reason}`);
  for (const f of run.insights) for (const text of [f.message, ...f.details.map((d) => d.message)]) out.write(text);
}

async function runModel(path: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { parseModel } = await import('../learn/model-file.js');
  const { predict, explain } = await import('../learn/predict.js');
  const { syntheticJobs } = await import('../learn/testing/synthetic.js');
  const model = parseModel(readFileSync(path, 'utf8'));
  // a table with the features the synthetic model was trained on (a mutated file may name others: a typed error)
  const { table } = syntheticJobs(12, 3);
  const p = predict(model, table);
  const e = explain(model, table, { rows: [0, 1], reference: 2 });
  for (const v of p.output) if (typeof v !== 'number') throw new Error('a prediction that is not a number');
  if (e.length !== 2) throw new Error('explain returned the wrong rows');
}

/** Answers that must not come from the service, whatever the request. */
async function runHttp(path: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { connect } = await import('node:net');
  const { startServer } = await import('../serve/app.js');
  const raw = readFileSync(path);
  const server = await startServer({ port: 0, threads: 1, maxUpload: 1 << 20, timeoutMs: 10_000, maxInflate: FUZZ_LIMITS.maxInflate });
  try {
    const port = Number(new URL(server.url).port);
    // the request's Host names this service (rebinding is its own test): a Host header in the input is kept
    const text = raw.toString('latin1').replace(/\{PORT\}/g, String(port));
    const answer = await new Promise<string>((res, rej) => {
      const sock = connect(port, '127.0.0.1');
      let got = '';
      sock.on('data', (d: Buffer) => (got += d.toString('latin1')));
      sock.on('end', () => res(got));
      sock.on('close', () => res(got));
      sock.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? res(got) : rej(e)));
      sock.end(Buffer.from(text, 'latin1'));
    });
    for (const m of answer.matchAll(/^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n/gm)) {
      const status = Number(m[1]);
      const headers = m[2].toLowerCase();
      if (status >= 500 && status !== 503 && status !== 504) throw new Error(`the service answered ${status}: ${answer.slice(m.index, m.index + 400)}`);
      if (!headers.includes('content-security-policy:')) throw new Error(`an answer (${status}) without the security headers`);
    }
    if (answer.includes(tmpdir())) throw new Error('an answer names a server path');
  } finally {
    await server.close();
  }
}

/** Largest line the fuzzed MCP server reads (smaller than the real one: the fuzzer's inputs stay small). */
const MCP_FUZZ_MESSAGE_BYTES = 1 << 20;

/**
 * A session of `iolens mcp`, lines of JSON-RPC sent to its transport, then a ping: every request (a line that is a
 * JSON object with a method and an id) must be answered, every answer must be one line of JSON with no stack in it,
 * and the ping must be answered after whatever came before (the server goes on).
 */
async function runMcp(path: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { PassThrough } = await import('node:stream');
  const { createMcpServer } = await import('../mcp/server.js');
  const { LineTransport } = await import('../mcp/stdio.js');
  const raw = readFileSync(path);
  const expected = new Set<string>(['"fuzz-probe"']);
  for (const line of raw.toString('utf8').split('\n')) {
    let v: unknown;
    try {
      v = JSON.parse(line.replace(/\r$/, ''));
    } catch {
      continue;
    }
    const m = v as { id?: unknown; method?: unknown } | null;
    if (m && typeof m === 'object' && !Array.isArray(m) && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) expected.add(JSON.stringify(m.id));
  }
  const input = new PassThrough();
  const output = new PassThrough();
  const mcp = await createMcpServer();
  const answered = new Set<string>();
  let out = '';
  let bad: string | null = null;
  output.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      try {
        const r = JSON.parse(line) as { id?: unknown; error?: { message?: string } };
        if (r.id !== undefined && r.id !== null) answered.add(JSON.stringify(r.id));
        if (/\n\s+at |\bat .*\.js:\d+/.test(line)) bad = `an answer with a stack: ${line.slice(0, 300)}`;
      } catch {
        bad = `an answer that is not JSON: ${line.slice(0, 300)}`;
      }
    }
  });
  try {
    await mcp.server.connect(new LineTransport(input, output, MCP_FUZZ_MESSAGE_BYTES));
    input.write(raw);
    input.write(`\n${JSON.stringify({ jsonrpc: '2.0', id: 'fuzz-probe', method: 'ping' })}\n`);
    // (bounded by the harness's time limit per input: a request never answered is a timeout finding)
    while (![...expected].every((id) => answered.has(id)) && bad === null) await new Promise((r) => setTimeout(r, 5));
    if (bad !== null) throw new Error(bad);
  } finally {
    await mcp.close();
  }
}

/** Runs one input of `target`; classifies the outcome. Files are written to a fresh temp folder, removed after. */
export async function runInput(target: TargetName, input: FuzzInput): Promise<RunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), `iolens-fuzz-${target}-`));
  try {
    for (const [name, bytes] of Object.entries(input)) {
      const p = join(dir, name);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, bytes);
    }
    const first = join(dir, Object.keys(input)[0]);
    if (target === 'darshan') await runDarshan(Object.values(input)[0]);
    else if (target === 'rules') await runRules(first);
    else if (target === 'model') await runModel(first);
    else if (target === 'http') await runHttp(first);
    else if (target === 'mcp') await runMcp(first);
    else await runTrace(dir, input, target);
    return { ok: true };
  } catch (err) {
    const e = err as Error;
    const name = e && e.constructor ? e.constructor.name : typeof err;
    return { ok: false, error: `${name}: ${e && e.message !== undefined ? e.message : String(err)}`, typed: isIOLensError(err), ...(e && e.stack ? { stack: e.stack } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
