import type { Command } from 'commander';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { writeAllSync } from '../../util/output.js';
import { DEFAULT_DB, openStore } from '../../store/db.js';
import { escapeCsv, escapeTerminal } from '../../text/escape.js';
import { plural } from '../../text/format.js';
import { clusterStore, hierarchyJson, loadMembers, readFeatureList, renderRunSummary, storedRun, type StoredRun } from '../../clustering/index.js';

interface Options {
  db?: string;
  table?: string;
  features?: string;
  preset?: string;
  key?: string;
  target?: string | false;
  ioTime?: string;
  minClusterSize?: string;
  minSamples?: string;
  selection?: string;
  epsilon?: string;
  pca?: string;
  maxModels?: string;
  modelMinRows?: string;
  folds?: string;
  seed?: string;
  threads?: string;
  out?: string;
  force?: boolean;
  csv?: boolean;
  summary?: boolean;
  md?: boolean;
  top: string;
  note?: string;
  run?: string;
  quiet?: boolean;
}

function int(flag: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n < min) throw new UserError(`${flag} wants a whole number ≥ ${min} (got ${v})`);
  return n;
}

function float(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new UserError(`${flag} wants a number ≥ 0 (got ${v})`);
  return n;
}

function pcaOption(v: string | undefined): number | 'auto' | null | undefined {
  if (v === undefined || v === 'auto') return v;
  if (v === 'none') return null;
  return int('--pca', v, 1);
}

/** Writes a file whole or not at all (a temporary file renamed into place). */
function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

async function membersCsv(db: string, run: StoredRun, rows?: { keys: string[]; labels: Int32Array }): Promise<string> {
  const out: string[] = [`${escapeCsv(run.info.key_column)},cluster`];
  if (rows) {
    for (let i = 0; i < rows.keys.length; i++) out.push(`${escapeCsv(rows.keys[i])},${rows.labels[i]}`);
  } else {
    const store = await openStore(db, { readOnly: true });
    try {
      for (const m of await loadMembers(store, run.run_id)) out.push(`${escapeCsv(m.key)},${m.cluster}`);
    } finally {
      store.close();
    }
  }
  return out.join('\n') + '\n';
}

const cmd: CommandModule = {
  name: 'cluster',
  register(program: Command) {
    program
      .command('cluster')
      .description('group the jobs of a store by I/O behaviour (HDBSCAN* hierarchy, Gauge): per-group summaries, local throughput models, explanations; saved as a new run')
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--table <name>', 'table to cluster: jobs (default) or an imported table (NAME or features_NAME)')
      .option('--features <file>', 'feature columns, one per line (or separated by commas or spaces; # comments)')
      .option('--preset <id>', 'a feature set of the registry: gauge (default on jobs), aiio, totals')
      .option('--key <column>', 'unique column naming each row (default: hash on jobs, _row on imported tables)')
      .option('--target <column>', 'throughput column for the local models (default on jobs: io_mibs)')
      .option('--no-target', 'no throughput models')
      .option('--io-time <column>', 'I/O time column, to rank groups by the I/O time they spend (default: io_time when present)')
      .option('--min-cluster-size <n>', 'smallest group that counts as a cluster (default: max(5, rows / 200))')
      .option('--min-samples <n>', 'k of the core distance (default: min(min cluster size, 10))')
      .option('--selection <method>', 'eom (excess of mass, default) or leaf')
      .option('--epsilon <e>', 'ignore splits below this distance (cluster_selection_epsilon; default 0)')
      .option('--pca <n>', 'principal components to cluster: a number, none, or auto (default: exact up to ~30,000 × 60, else 15)')
      .option('--max-models <n>', 'nodes that get a local model, the root (global model) included (default 8; 0: none)')
      .option('--model-min-rows <n>', 'jobs with a positive target a node needs for a model (default 200)')
      .option('--folds <k>', 'cross-validation folds of the models (default 3)')
      .option('--seed <n>', 'seed of the models and samples (default 0)')
      .option('--threads <n>', 'worker threads (default: all cores)')
      .option('--out <file>', 'write the hierarchy as JSON')
      .option('--force', 'overwrite --out')
      .option('--csv', 'print KEY,cluster for every row (-1 = noise)')
      .option('--summary', 'print the largest groups and the groups that lose the most I/O time, with explanations')
      .option('--md', 'with --summary: Markdown')
      .option('--top <n>', 'groups per summary section', '10')
      .option('--note <text>', 'free text kept with the run')
      .option('--run <id>', 'do not cluster: show a stored run (run-N or latest) with --summary, --csv or --out')
      .option('-q, --quiet', 'no progress or summary line on stderr')
      .action(async (o: Options) => {
        const db = o.db ?? DEFAULT_DB;
        if (o.csv && o.summary) throw new UserError('--csv and --summary both print to standard output; choose one');
        if (o.md && !o.summary) throw new UserError('--md goes with --summary');
        const top = int('--top', o.top, 1)!;
        if (o.out && existsSync(o.out)) {
          if (statSync(o.out).isDirectory()) throw new UserError(`--out ${o.out} is a directory`);
          if (!o.force) throw new UserError(`--out ${o.out} exists; pass --force to overwrite it`);
        }
        const say = (line: string) => {
          if (!o.quiet) process.stderr.write(`${escapeTerminal(line)}\n`);
        };
        let run: StoredRun;
        let rows: { keys: string[]; labels: Int32Array } | undefined;
        if (o.run) {
          const clustering = ['table', 'features', 'preset', 'key', 'ioTime', 'minClusterSize', 'minSamples', 'selection', 'epsilon', 'pca', 'maxModels', 'modelMinRows', 'folds', 'seed', 'threads', 'note'] as const;
          const given = clustering.filter((k) => o[k] !== undefined);
          if (given.length > 0 || typeof o.target === 'string' || o.target === false) throw new UserError('--run shows a stored run: clustering options do not apply');
          if (!o.summary && !o.csv && !o.out) throw new UserError('--run needs --summary, --csv or --out');
          run = await storedRun(db, o.run);
        } else {
          if (o.selection !== undefined && o.selection !== 'eom' && o.selection !== 'leaf') throw new UserError(`--selection wants eom or leaf (got ${o.selection})`);
          const progress = !o.quiet && process.stderr.isTTY ? (line: string) => say(`iolens cluster: ${line}`) : undefined;
          const r = await clusterStore({
            db,
            table: o.table,
            key: o.key,
            features: o.features ? readFeatureList(o.features) : undefined,
            preset: o.preset,
            target: o.target === false ? null : o.target,
            ioTime: o.ioTime,
            minClusterSize: int('--min-cluster-size', o.minClusterSize, 2),
            minSamples: int('--min-samples', o.minSamples, 1),
            selection: o.selection as 'eom' | 'leaf' | undefined,
            epsilon: float('--epsilon', o.epsilon),
            pca: pcaOption(o.pca),
            threads: int('--threads', o.threads, 1),
            models: {
              ...(o.maxModels !== undefined ? { maxModels: int('--max-models', o.maxModels, 0) } : {}),
              ...(o.modelMinRows !== undefined ? { minRows: int('--model-min-rows', o.modelMinRows, 1) } : {}),
              ...(o.folds !== undefined ? { folds: int('--folds', o.folds, 2) } : {}),
              ...(o.seed !== undefined ? { seed: int('--seed', o.seed, 0) } : {}),
            },
            note: o.note ?? null,
            onProgress: progress,
          });
          run = r.run;
          rows = { keys: r.keys, labels: r.labels };
          const i = run.info;
          say(
            `${run.run_id}: ${plural(i.clusters, 'cluster')}, ${plural(i.noise, 'row')} noise, of ${plural(i.rows, 'row')} of ${i.source_table}; saved in ${db}${o.out ? `; hierarchy in ${o.out}` : ''}`,
          );
        }
        if (o.out) writeFileAtomic(o.out, hierarchyJson(run));
        if (o.csv) writeAllSync(1, Buffer.from(await membersCsv(db, run, rows), 'utf8'));
        if (o.summary) writeAllSync(1, Buffer.from(renderRunSummary(run, o.md ? 'md' : 'text', top), 'utf8'));
      });
  },
};

export default cmd;
