import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { oneLine, UserError } from '../errors.js';
import { DEFAULT_DB } from '../../store/db.js';
import { ingest, INGEST_ERRORS_QUERY } from '../../store/ingest.js';
import { loadSacct } from '../../store/sacct.js';
import { loadFsMetrics } from '../../store/fs-metrics.js';
import { parseShard } from '../../store/walk.js';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { maxInflateOption, withMaxInflate } from '../limit-options.js';

/** Skipped files listed one per line before the summary; the rest are counted and left in `ingest_errors`. */
const SHOWN_ERRORS = 50;

interface Opts {
  db?: string;
  files?: boolean;
  allFiles?: boolean;
  shard?: string;
  jobs?: string;
  quiet?: boolean;
  sacct?: string;
  fsMetrics?: string;
  perTarget?: boolean;
  report?: boolean;
  maxInflate?: string;
}

const cmd: CommandModule = {
  name: 'ingest',
  register(program: Command) {
    withMaxInflate(program.command('ingest'))
      .description('add Darshan logs (files, directories walked recursively, quoted globs) to a DuckDB job store')
      .argument('[paths...]', 'logs, directories or globs')
      .option('--db <file>', `database file (default ${DEFAULT_DB}, or iolens.part-I-of-N.duckdb with --shard)`)
      .option('--files', 'also fill the files table (one row per record per module)')
      .option('--all-files', 'in directories, try every file, not only *.darshan')
      .option('--shard <i/N>', 'take only slice i (0-based) of N of the files; each task writes its own --db')
      .option('-j, --jobs <n>', 'worker threads (default: all cores)')
      .option('--sacct <file>', 'also load Slurm accounting (sacct --parsable2 output)')
      .option('--fs-metrics <file>', 'also load file-system server metrics (CSV: timestamp,target,metric,value)')
      .option('--per-target', "with --fs-metrics: also keep each target's (OST's) own metrics, shown beside the summary's storage targets")
      .option('--no-report', 'skip the report insights (about 2x faster; insight columns stay NULL)')
      .option('-q, --quiet', 'no progress (a bar on a terminal, a line every 10 s otherwise) and no summary line')
      .action(async (paths: string[], o: Opts) => {
        const shard = o.shard ? parseShard(o.shard) : undefined;
        const db = o.db ?? (shard ? `iolens.part-${shard.index}-of-${shard.count}.duckdb` : DEFAULT_DB);
        if (paths.length === 0 && !o.sacct && !o.fsMetrics) throw new UserError('nothing to ingest: give log files or directories (or --sacct / --fs-metrics)');
        let jobs: number | undefined;
        if (o.jobs !== undefined) {
          jobs = Number(o.jobs);
          if (!Number.isInteger(jobs) || jobs < 0) throw new UserError(`--jobs wants a whole number (got ${o.jobs})`);
        }
        const say = (s: string) => {
          if (!o.quiet) process.stderr.write(`${s}\n`);
        };
        if (paths.length > 0) {
          // Ctrl-C: finish the logs in progress, commit them, remove temporary files, say what was saved (exit 130).
          // A second Ctrl-C stops at once (what was committed stays; the next ingest resumes).
          const stop = new AbortController();
          let interrupts = 0;
          const onSigint = () => {
            interrupts++;
            if (interrupts === 1) {
              process.stderr.write('\niolens: interrupted: finishing the logs in progress (Ctrl-C again to stop at once)\n');
              stop.abort();
            } else {
              rmSync(`${resolve(db)}.ingest-tmp`, { recursive: true, force: true });
              process.stderr.write('iolens: stopped; what was committed stays, the next ingest resumes\n');
              process.exit(130);
            }
          };
          process.on('SIGINT', onSigint);
          // Each skipped file with its reason (the first SHOWN_ERRORS; all are in the store's ingest_errors table).
          let shown = 0;
          const onError = (path: string, error: string) => {
            if (++shown <= SHOWN_ERRORS) process.stderr.write(`iolens: skipped ${oneLine(path)}: ${oneLine(error.startsWith(`${path}: `) ? error.slice(path.length + 2) : error)}\n`);
          };
          let st: Awaited<ReturnType<typeof ingest>>;
          try {
            st = await ingest({
            db,
            inputs: paths,
            files: !!o.files,
            allFiles: !!o.allFiles,
            shard,
            jobs,
            progress: o.quiet ? 'off' : process.stderr.isTTY ? 'bar' : 'lines',
            signal: stop.signal,
            // Testing hook: a shorter period between progress lines.
            progressEverySeconds: Number(process.env.IOLENS_PROGRESS_SECONDS) || 10,
            report: o.report !== false,
            maxInflate: maxInflateOption(o.maxInflate),
            // Testing hooks: smaller transactions, and a line per commit (the kill -9 test waits for them).
            batchRows: Number(process.env.IOLENS_INGEST_BATCH) || undefined,
            onCommit: process.env.IOLENS_INGEST_TRACE === '1' ? (s) => process.stderr.write(`committed ${s.inserted} ${s.duplicates} ${s.errors}\n`) : undefined,
            onError,
            });
          } finally {
            process.off('SIGINT', onSigint);
          }
          if (st.interrupted) {
            process.stderr.write(`iolens: interrupted: ${st.inserted} new jobs, ${st.duplicates} duplicates and ${st.errors} errors saved in ${db}; the next ingest takes the rest\n`);
            process.exitCode = 130;
            return;
          }
          if (shown > SHOWN_ERRORS) {
            process.stderr.write(`iolens: … and ${shown - SHOWN_ERRORS} more skipped: iolens query --db ${db} "${INGEST_ERRORS_QUERY}"\n`);
          }
          const rate = st.seconds > 0 ? (st.candidates - st.skipped) / st.seconds : 0;
          say(
            `${db}: ${st.inserted} new jobs, ${st.duplicates} duplicates, ${st.errors} errors, ${st.skipped} already ingested ` +
              `(${st.candidates} files, ${st.seconds.toFixed(1)} s, ${Math.round(rate)} logs/s, ${(st.bytes / 1e6 / Math.max(st.seconds, 1e-3)).toFixed(1)} MB/s` +
              `${(st.lockWaitMs ?? 0) >= 100 ? `; waited at most ${((st.lockWaitMs ?? 0) / 1000).toFixed(1)} s for readers of the store, held it at most ${((st.lockHeldMs ?? 0) / 1000).toFixed(1)} s` : ''})`,
          );
        }
        if (o.sacct) {
          const n = await loadSacct(db, o.sacct);
          say(`${db}: ${n.rows} sacct rows loaded (${n.matched} match a job in the store)`);
        }
        if (o.fsMetrics) {
          const n = await loadFsMetrics(db, o.fsMetrics, { perTarget: !!o.perTarget });
          say(`${db}: ${n.samples} file-system samples aggregated over ${n.jobs} job windows (${n.rows} rows)`);
        }
      });
  },
};

export default cmd;
