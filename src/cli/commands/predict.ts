import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError, oneLine } from '../errors.js';
import { FdSink } from '../../util/output.js';
import { escapeCsv } from '../../text/escape.js';
import { loadBundle, predictRows, readRows, type RowSource } from '../../models/index.js';
import { cellNumber, ensembleOption } from '../learn-options.js';
import { DEFAULT_DB } from '../../store/db.js';
import { escapeJsonForTerminal } from '../../text/escape.js';

interface PredictFlags {
  model?: string;
  db?: string;
  table?: string;
  where?: string;
  key?: string;
  csv?: boolean;
  json?: boolean;
  ood?: boolean;
  ensemble?: string;
}

/** Where the rows come from: logs on the command line, or a store table. */
export function rowSource(logs: readonly string[], o: { db?: string; table?: string; where?: string }, modelTable: string): RowSource {
  if (logs.length && (o.db || o.table || o.where)) throw new UserError('give logs or --db (and --table), not both');
  if (logs.length) return { kind: 'logs', paths: logs };
  if (!o.db && !o.table) throw new UserError('give Darshan logs, or --db FILE [--table T] for rows of a job store');
  return { kind: 'store', db: o.db ?? DEFAULT_DB, table: o.table ?? modelTable, ...(o.where ? { where: o.where } : {}) };
}

const cmd: CommandModule = {
  name: 'predict',
  register(program: Command) {
    program
      .command('predict')
      .description("predict jobs' throughput with a model file: Darshan logs, or the rows of a job store table")
      .argument('[logs...]', 'Darshan logs (their features are what ingest stores: one code path)')
      .option('--model <file>', 'model file written by iolens train')
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--table <name>', "table or view (default: the one the model was trained on)")
      .option('--where <sql>', 'only the rows matching this SQL condition')
      .option('--key <column>', "column naming each row in the output (default: the model's key; hash for logs)")
      .option('--csv', 'CSV: key, path and job_id (where the source has them), prediction, low, high, ood, ood_reasons (the default)')
      .option('--json', 'a JSON array of objects, with the reasons of each ood')
      .option('--no-ood', 'skip the out-of-distribution checks (ood is then false everywhere)')
      .option('--ensemble <method>', "merge of the models: average or closest (default: the model's)")
      .action(async (logs: string[], o: PredictFlags) => {
        if (!o.model) throw new UserError('give the model file with --model');
        if (o.csv && o.json) throw new UserError('choose --csv or --json');
        const ensemble = ensembleOption(o.ensemble);
        const bundle = loadBundle(o.model);
        const rows = await readRows(bundle, rowSource(logs, o, bundle.inputs.table), o.key);
        const p = predictRows(bundle, rows, { ood: o.ood !== false, ...(ensemble ? { ensemble } : {}) });
        const keyName = rows.keyColumn ?? 'row';
        const numericKey = rows.keyColumn !== null && rows.loaded.kinds[rows.keyColumn] === 'numeric';
        const out = new FdSink(1);
        // Each row named by its key, and by its log's path and its job id where the source has them (CSV = JSON).
        const labels = (['path', 'job_id'] as const).filter((c) => c !== keyName && (c === 'path' ? rows.labels.path : rows.labels.jobId).some((v) => v !== null));
        const label = (c: 'path' | 'job_id', r: number) => (c === 'path' ? rows.labels.path[r] : rows.labels.jobId[r]);
        if (o.json) {
          out.write('[');
          for (let r = 0; r < p.prediction.length; r++) {
            const obj = {
              [keyName]: numericKey && !rows.keys[r].startsWith('#') ? Number(rows.keys[r]) : rows.keys[r],
              ...Object.fromEntries(labels.map((c) => [c, label(c, r)])),
              prediction: p.prediction[r],
              low: p.low[r],
              high: p.high[r],
              ood: p.ood[r],
              oodReasons: p.oodReasons[r],
            };
            out.write(`${r ? ',' : ''}\n${escapeJsonForTerminal(JSON.stringify(obj))}`);
          }
          out.write('\n]\n');
        } else {
          out.write(`${[keyName, ...labels].map(escapeCsv).join(',')},prediction,low,high,ood,ood_reasons\n`);
          for (let r = 0; r < p.prediction.length; r++) {
            const named = [rows.keys[r], ...labels.map((c) => label(c, r) ?? '')].map(escapeCsv).join(',');
            out.write(`${named},${cellNumber(p.prediction[r])},${cellNumber(p.low[r])},${cellNumber(p.high[r])},${p.ood[r]},${escapeCsv(p.oodReasons[r].join('; '))}\n`);
          }
        }
        out.flush();
        for (const f of rows.failures) process.stderr.write(`iolens: ${oneLine(f.error)}\n`);
        if (rows.failures.length) process.exitCode = 2;
      });
  },
};

export default cmd;
