import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { parseSize } from '../../util/limits.js';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';

interface ServeFlags {
  db?: string;
  write?: boolean;
  host: string;
  port: string;
  maxUpload: string;
  maxInFlight?: string;
  model?: string;
  token?: string;
  timeout: string;
  threads?: string;
  sample?: boolean;
  maxInflate?: string;
  maxConnections: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

function positive(v: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > max) throw new UserError(`${flag}: expected a whole number up to ${max}, got "${v}"`);
  return n;
}

const serve: CommandModule = {
  name: 'serve',
  register(program: Command) {
    withMaxInflate(
      program
        .command('serve')
        .description('the diagnosis web service: upload a log, see its report and plots; the jobs explorer and the facility dashboard over a job store (docs/serve.md)')
        .option('--db <file>', 'job store to browse (opened read-only unless --write)')
        .option('--write', 'keep every upload in --db (its jobs row and its report)')
        .option('--host <address>', 'address to listen on', '127.0.0.1')
        .option('--port <n>', 'port (0: any free port)', '8080')
        .option('--max-upload <size>', 'largest upload, e.g. 4m, 1g (413 past it)', '256m')
        .option('--max-in-flight <size>', 'bytes of uploads held at once (503 past it; default: twice --max-upload, at least 512m)')
        .option('--model <file>', 'a model file (iolens train): predicted vs measured throughput on the dashboard')
        .option('--token <token>', 'uploads need "Authorization: Bearer <token>"')
        .option('--timeout <seconds>', 'time limit of one diagnosis', '120')
        .option('--threads <n>', 'decoding threads (default: cores, at most 4)')
        .option('--max-connections <n>', 'connections open at once (a new one past it is closed at once)', '256')
        .option('--sample', 'serve the sample store (built from the bundled sample log and a synthetic archive on first start)'),
    ).action(async (flags: ServeFlags) => {
      const maxUpload = parseSize(flags.maxUpload);
      if (maxUpload === null) throw new UserError(`--max-upload: expected a size like 4m or 1g, got "${flags.maxUpload}"`);
      const maxInFlight = flags.maxInFlight !== undefined ? parseSize(flags.maxInFlight) : undefined;
      if (maxInFlight === null) throw new UserError(`--max-in-flight: expected a size like 512m or 2g, got "${flags.maxInFlight}"`);
      if (maxInFlight !== undefined && maxInFlight < maxUpload) throw new UserError('--max-in-flight: at least --max-upload (one upload must fit)');
      const port = positive(flags.port, '--port', 65535);
      // (a day at most: Node's timers hold at most 2^31 − 1 ms and would turn more into 1 ms)
      const timeout = positive(flags.timeout, '--timeout', 86_400);
      if (timeout < 1) throw new UserError('--timeout: at least 1 second');
      const threads = flags.threads !== undefined ? positive(flags.threads, '--threads', 64) : undefined;
      if (threads === 0) throw new UserError('--threads: at least 1');
      const maxConnections = positive(flags.maxConnections, '--max-connections', 1_000_000);
      if (maxConnections === 0) throw new UserError('--max-connections: at least 1');
      if (!LOOPBACK.test(flags.host) && flags.write && !flags.token) {
        throw new UserError(`--write on ${flags.host} (not a loopback address) needs --token: anyone who reaches it could fill the store`);
      }
      let db = flags.db ?? null;
      let model = flags.model ?? null;
      if (flags.sample) {
        if (flags.db || flags.write) throw new UserError('--sample serves its own store: leave out --db and --write');
        const { ensureSampleStore } = await import('../../serve/sample.js');
        const s = await ensureSampleStore(undefined, (line) => process.stderr.write(`iolens: ${line}\n`));
        db = s.db;
        model = model ?? s.model;
      }
      const { startServer } = await import('../../serve/app.js');
      const server = await startServer({
        db,
        write: !!flags.write,
        host: flags.host,
        port,
        maxUpload,
        ...(maxInFlight !== undefined ? { maxInFlight } : {}),
        token: flags.token ?? null,
        model,
        timeoutMs: timeout * 1000,
        maxConnections,
        ...(threads !== undefined ? { threads } : {}),
        ...(maxInflateOption(flags.maxInflate) !== undefined ? { maxInflate: maxInflateOption(flags.maxInflate) } : {}),
      });
      process.stdout.write(`listening on ${server.url}\n`);
      const stop = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
};

export default serve;
