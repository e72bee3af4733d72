import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { BusyError, FormatError, InputError, IOLensError, LimitError, NoSpaceError, UsageError } from '../contract/errors.js';
import type { History, Report } from '../contract/index.js';
import { compareRuns, type RunInput } from '../compare/diff.js';
import { medianRun, runHistory } from '../compare/history.js';
import { settingsFromRow } from '../compare/settings.js';
import { parseBundle, withLearned, type ModelBundle } from '../models/index.js';
import { toolVersion } from '../pipeline/resources.js';
import { lockWaits } from '../store/db.js';
import { StoreLeases } from '../store/live.js';
import { distFile, packageRoot } from '../util/package-root.js';
import { sizeText } from '../util/limits.js';
import { TaskPool } from '../util/tasks.js';
import { JobStore, SORT_COLUMNS, type JobFilter } from './store-api.js';
import { learnedFor } from './learned.js';
import type { DiagnoseResult, DiagnoseTask, DiagnoseWorkerData } from './worker.js';
import { UploadSpool, UploadTooLarge, type Upload } from './uploads.js';

/** Options of the web service (`iolens serve`). */
export interface ServeOptions {
  /** Job store; null: no store (uploads are diagnosed and kept in memory for their page). */
  readonly db?: string | null;
  /** Open the store for writing and keep every upload in it (default: read-only). */
  readonly write?: boolean;
  readonly host?: string;
  /** 0: an ephemeral port. */
  readonly port?: number;
  /** Largest upload in bytes (413 past it). */
  readonly maxUpload?: number;
  /** Writes (uploads) need `Authorization: Bearer TOKEN`. */
  readonly token?: string | null;
  /** A model file (`iolens train`): the learned diagnosis of every job, predicted vs measured on the dashboard. */
  readonly model?: string | null;
  /** Time limit of one request's diagnosis, milliseconds. */
  readonly timeoutMs?: number;
  /** Decoding threads (default: cores, at most 4). */
  readonly threads?: number;
  /** Uploads that may wait for a thread; past it 503 with Retry-After. */
  readonly maxQueued?: number;
  /**
   * Bytes of uploads the service holds at once, counted as they arrive (received, until answered): an upload whose
   * declared size would pass it is answered 503 with Retry-After before its body is read, and one whose bytes pass it
   * while they arrive gets 503 once its body ends (nothing more of it is kept). A client holds only what it has sent,
   * so slow clients cannot starve the others. Default: twice the largest upload, at least 512 MiB.
   */
  readonly maxInFlight?: number;
  /** Connections open at once; past it a new connection is closed at once (default 256). */
  readonly maxConnections?: number;
  /** Time a client has to send a request's headers, milliseconds (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** Decompression budget of one log. */
  readonly maxInflate?: number;
}

export const DEFAULTS = { host: '127.0.0.1', port: 8080, maxUpload: 256 * 2 ** 20, timeoutMs: 120_000, maxQueued: 64, maxConnections: 256, headersTimeoutMs: 10_000 } as const;

/** The Content-Security-Policy of every answer: only the service's own script runs (no inline script), nothing is framed or fetched from elsewhere. */
export const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGES = { '/': 'upload', '/jobs': 'jobs', '/dashboard': 'dashboard', '/targets': 'targets', '/trace': 'trace', '/compare': 'compare' } as const;
const HASH = /^[0-9a-f]{64}$/;
/** A cluster node's id in a URL: up to 9 digits. */
const NODE_ID = { type: 'string', pattern: '^[0-9]{1,9}$' } as const;
/** Reports kept in memory for the pages of uploads that were not stored (or when there is no store). */
const MEMORY_REPORTS = 64;

/** Bytes of an upload's name (a file name's limit on Linux file systems). */
const MAX_NAME_BYTES = 255;

/**
 * An upload's file name (a name, not a path: separators and control characters become '_'; dots alone are refused);
 * null when it is longer than a file name may be.
 */
function uploadName(query: unknown, header: unknown, fallback: string): string | null {
  const name = String(query ?? header ?? '').replace(/[/\\\u0000-\u001f\u007f]/g, '_');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return null;
  return name === '' || /^\.+$/.test(name) ? fallback : name;
}

/** HTTP status of a library error. */
function statusOf(err: unknown): number {
  if (err instanceof BusyError) return 503;
  if (err instanceof NoSpaceError) return 507;
  if (err instanceof LimitError) return /longer than/.test(err.message) ? 504 : 413;
  if (err instanceof FormatError || err instanceof InputError) return 422;
  if (err instanceof UsageError) return 400;
  return 500;
}

const oneLine = (s: string) => s.split('\n')[0].slice(0, 500);

/** The page every HTML route answers with: the script reads the path and draws the page from the API. */
function shell(page: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>IOLens — ${title}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/app.css"><script type="module" src="/assets/app.js"></script></head>
<body data-page="${page}"><header><a class="brand" href="/">IOLens</a><nav><a href="/">Upload</a><a href="/jobs">Jobs</a><a href="/dashboard">Dashboard</a><a href="/targets">Targets</a><a href="/trace">Trace</a></nav></header>
<main id="app"><noscript>These pages need JavaScript; the API is under /api.</noscript></main></body></html>
`;
}

/** The web assets built by `npm run build` (scripts/bundle.mjs), loaded once. */
function loadAssets(): Map<string, { body: Buffer; type: string }> {
  const dir = join(packageRoot(), 'dist', 'web');
  const out = new Map<string, { body: Buffer; type: string }>();
  for (const [name, type] of [['app.js', 'text/javascript; charset=utf-8'], ['app.css', 'text/css; charset=utf-8']] as const) {
    const p = join(dir, name);
    if (!existsSync(p)) throw new UsageError(`web assets missing (${p}): run npm run build`);
    out.set(name, { body: readFileSync(p), type });
  }
  return out;
}

/** The security headers of every answer. */
function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .header('Cross-Origin-Opener-Policy', 'same-origin');
}

export interface Server {
  readonly app: FastifyInstance;
  /** `http://HOST:PORT` */
  readonly url: string;
  readonly pool: TaskPool<DiagnoseTask, DiagnoseResult>;
  close(): Promise<void>;
}

/** Starts the service; resolves once it listens. */
export async function startServer(o: ServeOptions = {}): Promise<Server> {
  const maxUpload = o.maxUpload ?? DEFAULTS.maxUpload;
  const maxInFlight = o.maxInFlight ?? Math.max(2 * maxUpload, 512 * 2 ** 20);
  let inFlight = 0;
  const timeoutMs = o.timeoutMs ?? DEFAULTS.timeoutMs;
  const headersTimeoutMs = Math.min(o.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs, timeoutMs + 30_000);
  const host = o.host ?? DEFAULTS.host;
  const token = o.token ? Buffer.from(o.token) : null;
  if (o.write && !o.db) throw new UsageError('--write needs --db (the store to write uploads to)');
  const model: ModelBundle | null = o.model ? loadModel(o.model) : null;
  const assets = loadAssets();
  // The store is opened per request (shared by the requests in flight) and closed between, so that iolens ingest,
  // cluster and train can write it while the service runs (src/store/live.ts).
  let store: StoreLeases | null = null;
  if (o.db) store = await StoreLeases.open(o.db, !!o.write);
  const jobs = store ? new JobStore(store, !!o.write) : null;
  const data: DiagnoseWorkerData = o.maxInflate !== undefined ? { maxInflate: o.maxInflate } : {};
  const spool = UploadSpool.create();
  // No answer names a path of the server or a process: the store's, the model's and the spool's paths become words.
  const hidden: [string, string][] = [
    ...(o.db ? ([[resolve(o.db), 'the job store'], [o.db, 'the job store'], [dirname(resolve(o.db)), "the job store's folder"]] as [string, string][]) : []),
    ...(o.model ? ([[resolve(o.model), 'the model file'], [o.model, 'the model file']] as [string, string][]) : []),
    [spool.dir, 'the upload folder'],
    [tmpdir(), 'the temporary folder'],
  ];
  const redact = (m: string): string => {
    let out = m.replace(/ \(PID \d+\)/g, '').replace(/\bPID \d+/g, 'another process');
    for (const [p, word] of hidden.sort((a, b) => b[0].length - a[0].length)) if (p.length > 1) out = out.split(p).join(word);
    return out;
  };
  const pool = new TaskPool<DiagnoseTask, DiagnoseResult>({
    script: distFile('serve/worker.js'),
    workerData: data,
    threads: o.threads ?? Math.min(4, availableParallelism()),
    maxQueued: o.maxQueued ?? DEFAULTS.maxQueued,
    timeoutMs,
  });
  const memory = new Map<string, { report: string; row: string }>();
  const remember = (hash: string, report: string, row: string) => {
    memory.delete(hash);
    memory.set(hash, { report, row });
    while (memory.size > MEMORY_REPORTS) memory.delete(memory.keys().next().value!);
  };

  const app = Fastify({
    bodyLimit: maxUpload,
    connectionTimeout: timeoutMs + 30_000,
    requestTimeout: timeoutMs + 30_000,
    logger: false,
    // Names in URLs are hashes and page names; nothing else is routed.
    routerOptions: { maxParamLength: 100 },
    // A strict API: a query parameter the route does not name is refused (400), never dropped in silence.
    ajv: { customOptions: { removeAdditional: false } },
    // Node answers a request without a Host header itself (400, no headers of ours): this service checks the Host
    // (the rebinding check below) and answers with its own headers. Headers sent slowly (a byte now and then) hold a
    // connection at most headersTimeoutMs (checked every second).
    http: { requireHostHeader: false, headersTimeout: headersTimeoutMs, connectionsCheckingInterval: 1000 },
    // A request Node's HTTP parser cannot read (a malformed request line or header) is answered before Fastify sees
    // it: one line of JSON with the security headers too, then the connection closes.
    clientErrorHandler: (err, socket) => {
      if (!socket.writable) return;
      const body = JSON.stringify({ error: `bad request: ${oneLine(err.message)}` });
      const head = [
        'HTTP/1.1 400 Bad Request',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `Content-Security-Policy: ${CSP}`,
        'X-Content-Type-Options: nosniff',
        'Referrer-Policy: no-referrer',
        'X-Frame-Options: DENY',
        'Cross-Origin-Opener-Policy: same-origin',
        'Connection: close',
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    },
    // The router's own errors (a malformed URL, a bad header) answer as every other error: one line of JSON.
    frameworkErrors: (err, _req, reply) => {
      // (these answers skip the hooks: the security headers are set here)
      void securityHeaders(reply as FastifyReply).code(400).type('application/json; charset=utf-8').send(JSON.stringify({ error: `bad request: ${oneLine(err.message)}` }));
    },
  });
  app.removeAllContentTypeParsers();
  // An upload's body goes to the spool's disk as it arrives (src/serve/uploads.ts), not into this process's memory.
  const answered = new WeakMap<object, { closed: boolean; held: number; uploads: Upload[] }>();
  app.addContentTypeParser('*', (req, payload, done) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxUpload) return done(new UploadTooLarge('declared larger than the limit'), undefined);
    // the budget is spent by the bytes as they arrive, and given back once the request is answered
    const take = (n: number): boolean => {
      const t = answered.get(req.raw);
      if (!t || t.closed || inFlight + n > maxInFlight) return false;
      inFlight += n;
      t.held += n;
      return true;
    };
    spool.receive(payload, maxUpload, Number.isFinite(declared) ? declared : maxUpload, take).then(
      (u) => {
        // removed once the request is answered, however that ends (the budget hook's 'close' below)
        const t = answered.get(req.raw);
        if (!t || t.closed) spool.remove(u);
        else t.uploads.push(u);
        done(null, u);
      },
      (err: Error) => done(err, undefined),
    );
  });

  // DNS rebinding and cross-site writes: a page on another origin can make a browser send requests here. Every
  // request must name this service in its Host header (one of the loopback names when it listens on loopback; any
  // name when it listens on every address), and a request that changes something (an upload) sent by a browser page
  // must come from this service's own pages: its Origin is this service, and it is not a cross-site fetch.
  const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
  const anyAddress = host === '0.0.0.0' || host === '::';
  const names = LOOPBACK.includes(host) || host === '::1' ? LOOPBACK : [host.includes(':') ? `[${host}]` : host];
  const listening = (): number => {
    const a = app.server.address();
    return typeof a === 'object' && a ? a.port : (o.port ?? DEFAULTS.port);
  };
  app.addHook('onRequest', async (req, reply) => {
    const h = String(req.headers.host ?? '').toLowerCase();
    const port = listening();
    if (!anyAddress && !names.some((n) => h === `${n}:${port}` || (port === 80 && h === n))) {
      return fail(reply, 403, `this service answers requests addressed to it (Host ${names[0]}:${port}), not to ${oneLine(h) || 'no host'}`);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const origin = req.headers.origin;
      const site = req.headers['sec-fetch-site'];
      if ((origin !== undefined && origin !== `http://${req.headers.host}`) || site === 'cross-site' || site === 'same-site') {
        return fail(reply, 403, 'a request from another site cannot change anything here (uploads come from these pages, or from a client such as curl)');
      }
    }
  });

  // Room for uploads: the bytes received and not yet answered are counted (not the sizes declared: a client that
  // declares much and sends little holds little); an upload whose declared size (or one byte, when it declares none)
  // would not fit now is answered 503 before its body is read, and the bytes are given back once it is answered,
  // however that ends. Without the token, 401 before any byte of the body is read.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST') return;
    if (!authorised(req)) return fail(reply, 401, 'this service needs a token for uploads (Authorization: Bearer TOKEN)');
    const declared = Number(req.headers['content-length']);
    const size = Number.isFinite(declared) && declared >= 0 ? Math.min(declared, maxUpload) : 1;
    if (inFlight + size > maxInFlight) {
      reply.header('Retry-After', '1');
      return fail(reply, 503, `the service holds ${sizeText(inFlight)} of uploads already (at most ${sizeText(maxInFlight)} at once): retry shortly`);
    }
    const tracked = { closed: false, held: 0, uploads: [] as Upload[] };
    answered.set(req.raw, tracked);
    reply.raw.once('close', () => {
      inFlight -= tracked.held;
      tracked.held = 0;
      tracked.closed = true;
      for (const u of tracked.uploads) spool.remove(u);
    });
  });

  app.addHook('onSend', async (_req, reply) => {
    securityHeaders(reply);
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    let status = err instanceof IOLensError ? statusOf(err) : (err.statusCode ?? 500);
    let message = redact(oneLine(err.message));
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      message = `upload larger than the limit of ${maxUpload} bytes (--max-upload)`;
    }
    if (status >= 500 && !(err instanceof IOLensError)) message = `internal error: ${message}`;
    if (err instanceof BusyError && store && /database|locked/.test(message)) message = 'the job store is busy (another program writes it): retry shortly';
    if (status === 503) reply.header('Retry-After', '1');
    void reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify({ error: message }));
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).type('application/json; charset=utf-8').send(JSON.stringify({ error: `not found: ${req.method} ${oneLine(req.url)}` }));
  });

  const authorised = (req: FastifyRequest): boolean => {
    if (!token) return true;
    const m = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
    const given = Buffer.from(m ? m[1] : '');
    return given.length === token.length && timingSafeEqual(given, token);
  };
  const fail = (reply: FastifyReply, status: number, error: string) => reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify({ error }));

  // --- pages and assets -------------------------------------------------------------------------------------
  for (const [path, page] of Object.entries(PAGES)) app.get(path, async (_req, reply) => reply.type('text/html; charset=utf-8').send(shell(page, page)));
  app.get<{ Params: { hash: string } }>('/jobs/:hash', async (req, reply) => {
    if (!HASH.test(req.params.hash)) return fail(reply, 404, 'not a job hash');
    return reply.type('text/html; charset=utf-8').send(shell('job', 'job'));
  });
  app.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const a = assets.get(req.params.name);
    if (!a) return fail(reply, 404, 'no such asset');
    return reply.type(a.type).header('Cache-Control', 'no-cache').send(a.body);
  });

  // --- API ------------------------------------------------------------------------------------------------
  // (no server paths in answers: the store's path stays on the server)
  app.get('/api/health', async () => ({ ok: true, version: toolVersion(), store: store ? { writable: !!o.write, opens: store.stats.opens, maxOpenMs: store.stats.maxOpenMs, maxLockWaitMs: lockWaits.maxMs } : null, model: model ? model.inputs.target : null, running: pool.running, queued: pool.queued, uploadBytes: inFlight }));

  /** An upload route: the token, a body, a name, then the task on the decoding pool. */
  const uploadRoute = (path: string, what: string, fallback: string, kind: 'log' | 'trace', answer: (r: DiagnoseResult, reply: FastifyReply) => Promise<FastifyReply>) =>
    app.post<{ Querystring: { name?: string } }>(
      path,
      { schema: { querystring: { type: 'object', properties: { name: { type: 'string', maxLength: 255 } }, additionalProperties: false } } },
      async (req, reply) => {
        const body = req.body as Upload | undefined;
        if (!body || body.size === 0) return fail(reply, 400, `empty upload: send the bytes of ${what} as the request body`);
        const name = uploadName(req.query.name, req.headers['x-filename'], fallback);
        if (name === null) return fail(reply, 400, `an upload's name is at most ${MAX_NAME_BYTES} bytes (a file name)`);
        if (kind === 'log') return answer(await pool.submit({ kind, name, file: body.file }), reply);
        // a trace's files go to a folder of this request's own, removed once its task has ended, however it ends (the
        // pool settles a task only once its thread has stopped; removed before the answer goes)
        const scratch = spool.scratch();
        let r: DiagnoseResult;
        try {
          r = await pool.submit({ kind, name, file: body.file, scratch });
        } finally {
          spool.removeScratch(scratch);
        }
        return answer(r, reply);
      },
    );

  uploadRoute('/api/reports', 'a Darshan log', 'upload.darshan', 'log', async (r, reply) => {
    let stored = false;
    let added = false;
    if (jobs && o.write) {
      added = await jobs.storeUpload(r.hash, r.row, r.report, toolVersion());
      stored = true;
    }
    remember(r.hash, r.report, r.row);
    const url = `/jobs/${r.hash}`;
    // With a model, the report carries its learned section, as `iolens report --json --charts --model M` prints it.
    let report = r.report;
    let learned = 'null';
    if (model) {
      const rep = JSON.parse(r.report) as Report;
      const section = learnedFor(model, o.model!, JSON.parse(r.row) as Record<string, unknown>, rep.insights);
      if (section) {
        learned = JSON.stringify(section);
        report = JSON.stringify(withLearned(rep, section));
      }
    }
    reply.code(added ? 201 : 200).header('Location', url).type('application/json; charset=utf-8');
    return reply.send(`{"hash":"${r.hash}","url":"${url}","stored":${stored},"new":${added},"report":${report},"learned":${learned}}`);
  });
  uploadRoute('/api/traces', 'a trace file', 'trace.pfw', 'trace', async (r, reply) => reply.type('application/json; charset=utf-8').send(r.report));

  app.get<{ Querystring: Record<string, string | number | undefined> }>(
    '/api/jobs',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: 200 },
            app: { type: 'string', maxLength: 200 },
            problem: { type: 'string', maxLength: 100 },
            level: { type: 'string', enum: ['HIGH', 'WARN', 'OK', 'INFO'] },
            run: { type: 'string', maxLength: 100 },
            // (digits, not a JSON-schema integer: "1e400" would pass as Infinity)
            node: NODE_ID,
            sort: { type: 'string', enum: [...SORT_COLUMNS] },
            order: { type: 'string', enum: ['asc', 'desc'] },
            limit: { type: 'integer', minimum: 1, maximum: 500 },
            offset: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
          },
        },
      },
    },
    async (req, reply) => {
      if (!jobs) return fail(reply, 404, 'this service has no job store (start it with --db FILE)');
      const q = req.query;
      return jobs.jobs({ ...q, ...(q.node !== undefined ? { node: Number(q.node) } : {}) } as JobFilter);
    },
  );

  /**
   * A job's row and report: the stored report, else one kept in memory (an upload), else recomputed from its log when
   * the path the store holds is readable (the same pipeline); null when the job is unknown.
   */
  const jobReport = async (hash: string): Promise<{ found: Awaited<ReturnType<JobStore['job']>>; report: Report | null; source: string; row: Record<string, unknown> | null } | null> => {
    const found = jobs ? await jobs.job(hash) : null;
    const kept = memory.get(hash);
    // (the store's report comes through the report upgrader: today's schema whatever IOLens version stored it)
    let report: Report | null = found?.report ?? null;
    let source: string = found?.report ? 'store' : 'none';
    if (!report && kept) {
      report = JSON.parse(kept.report) as Report;
      source = 'memory';
    }
    const path = typeof found?.row.path === 'string' ? found.row.path : null;
    if (!report && path && existsSync(path) && statSync(path).isFile()) {
      const r = await pool.submit({ kind: 'path', path });
      if (r.hash === hash) {
        remember(hash, r.report, r.row);
        report = JSON.parse(r.report) as Report;
        source = 'recomputed';
      }
    }
    if (!found && !report) return null;
    const row = found?.row ?? (kept ? (JSON.parse(kept.row) as Record<string, unknown>) : null);
    return { found, report, source, row };
  };

  app.get<{ Params: { hash: string } }>('/api/jobs/:hash', async (req, reply) => {
    const hash = req.params.hash;
    if (!HASH.test(hash)) return fail(reply, 400, 'a job is named by the SHA-256 of its log (64 hex digits)');
    const j = await jobReport(hash);
    if (!j) return fail(reply, 404, `no job ${hash}`);
    let report: Report | null = j.report;
    const learned = model && j.row ? learnedFor(model, o.model!, j.row, report?.insights ?? []) : null;
    if (learned && report) report = withLearned(report, learned);
    return { hash, row: j.found?.row ?? null, clusters: j.found?.clusters ?? [], report, reportSource: j.source, learned };
  });

  // Two jobs side by side (`iolens compare`): `other` against `base`, a job hash or `median`, the median run by I/O
  // time of the other job's application in the store (then with the application's history).
  app.get<{ Querystring: { base: string; other: string } }>(
    '/api/compare',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['base', 'other'],
          properties: { base: { type: 'string', maxLength: 64 }, other: { type: 'string', maxLength: 64 } },
        },
      },
    },
    async (req, reply) => {
      const { base, other } = req.query;
      if (!HASH.test(other) || !(base === 'median' || HASH.test(base))) return fail(reply, 400, 'compare names jobs by the SHA-256 of their log (64 hex digits); base may be "median"');
      const o2 = await jobReport(other);
      if (!o2?.report) return fail(reply, 404, o2 ? `job ${other.slice(0, 12)} has no report here (its log is not readable)` : `no job ${other}`);
      const run = (hash: string, j: { report: Report; row: Record<string, unknown> | null }): RunInput => ({
        name: `${j.report.job.logName || hash.slice(0, 12)} (${hash.slice(0, 8)})`,
        path: typeof j.row?.path === 'string' ? j.row.path : hash,
        report: j.report,
        settings: settingsFromRow(j.report, j.row),
      });
      let baseHash = base;
      let history: History | undefined;
      if (base === 'median') {
        if (!jobs) return fail(reply, 404, 'this service has no job store (start it with --db FILE)');
        const app = typeof o2.row?.app === 'string' ? o2.row.app : null;
        if (!app) return fail(reply, 404, `job ${other.slice(0, 12)} names no application`);
        const hist = await jobs.history(app);
        const ref = medianRun(hist, other, (j) => j.hasReport || (j.path !== null && existsSync(j.path)));
        const notes: string[] = ref ? [] : [`no other run of ${app} with a report here: nothing to compare with`];
        history = runHistory(app, hist, other, o2.report.io, ref, notes);
        if (!ref) return { ...compareRuns(run(other, { report: o2.report, row: o2.row }), [], toolVersion()), history };
        baseHash = ref.hash;
      }
      const b = await jobReport(baseHash);
      if (!b?.report) return fail(reply, 404, b ? `job ${baseHash.slice(0, 12)} has no report here (its log is not readable)` : `no job ${baseHash}`);
      const c = compareRuns(run(baseHash, { report: b.report, row: b.row }), [run(other, { report: o2.report, row: o2.row })], toolVersion());
      return history ? { ...c, history } : c;
    },
  );

  app.get<{ Querystring: { top?: number } }>(
    '/api/targets',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { top: { type: 'integer', minimum: 1, maximum: 1000 } } } } },
    async (req, reply) => {
      if (!jobs) return fail(reply, 404, 'this service has no job store (start it with --db FILE)');
      return jobs.targets(req.query.top ?? 100);
    },
  );

  app.get<{ Querystring: { run?: string } }>(
    '/api/clusters',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { run: { type: 'string', maxLength: 100 } } } } },
    async (req, reply) => {
      if (!jobs) return fail(reply, 404, 'this service has no job store (start it with --db FILE)');
      const runs = await jobs.runs();
      const run = req.query.run ?? (runs.find((r) => r.source_table === 'jobs') ?? runs[0])?.run_id ?? null;
      if (run !== null && !runs.some((r) => r.run_id === run)) return fail(reply, 404, `no clustering run ${run}`);
      return { runs, run, nodes: run === null ? [] : await jobs.tree(String(run)), model: model ? { target: model.inputs.target, features: model.model.preprocessor.features.map((f) => f.name) } : null };
    },
  );

  app.get<{ Params: { run: string; node: string } }>(
    '/api/clusters/:run/nodes/:node',
    { schema: { params: { type: 'object', properties: { run: { type: 'string', maxLength: 100 }, node: NODE_ID }, required: ['run', 'node'] } } },
    async (req, reply) => {
      if (!jobs) return fail(reply, 404, 'this service has no job store (start it with --db FILE)');
      return jobs.nodeRows(req.params.run, Number(req.params.node), 300, model);
    },
  );

  // past the cap of open connections, Node closes a new one at once
  app.server.maxConnections = o.maxConnections ?? DEFAULTS.maxConnections;
  await app.listen({ host, port: o.port ?? DEFAULTS.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (o.port ?? DEFAULTS.port);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    app,
    url,
    pool,
    async close() {
      // (the pool first: a diagnosis running stops and its request is answered, so the server's close does not wait
      // for it; then every file of the spool goes, whatever the requests left)
      const closing = app.close();
      await pool.close();
      await closing;
      spool.close();
      await store?.close();
    },
  };
}

function loadModel(path: string): ModelBundle {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new InputError(`${path}: cannot read the model file`);
  }
  try {
    return parseBundle(text);
  } catch (err) {
    throw new FormatError(`${path}: not an IOLens model file (${oneLine((err as Error).message)})`);
  }
}
