import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { InputError } from '../../contract/errors.js';
import { escapeTerminal } from '../../text/escape.js';
import { contributionText, explainRow, loadBundle, readRows, targetUnit, valueText } from '../../models/index.js';
import { baselineOption, intOption } from '../learn-options.js';
import { rowSource } from './predict.js';
import { safeJson } from '../../render/json.js';

interface ExplainFlags {
  model?: string;
  db?: string;
  table?: string;
  where?: string;
  key?: string;
  id?: string;
  json?: boolean;
  baseline?: string;
  top?: string;
}

const cmd: CommandModule = {
  name: 'explain',
  register(program: Command) {
    program
      .command('explain')
      .description("explain one job's predicted throughput feature by feature (exact SHAP; zero counters get zero blame)")
      .argument('[log]', 'a Darshan log')
      .option('--model <file>', 'model file written by iolens train')
      .option('--db <file>', 'database file: explain a row of a job store table instead of a log')
      .option('--table <name>', "table or view (default: the one the model was trained on)")
      .option('--where <sql>', 'read only the rows matching this SQL condition (history still needs the earlier ones)')
      .option('--key <column>', "the column --id is a value of (default: the model's key)")
      .option('--id <value>', 'the row to explain: its key value')
      .option('--json', 'print {base, output, contributions: [{feature, value, shap}], …} (base + Σ shap = output = log10(1 + prediction))')
      .option('--baseline <kind>', 'zero: against a job with no I/O, a zero counter gets exactly zero (default); path: path-dependent TreeSHAP')
      .option('--top <n>', 'contributions printed in words (default 8 costs and 4 gains)')
      .action(async (log: string | undefined, o: ExplainFlags) => {
        if (!o.model) throw new UserError('give the model file with --model');
        const baseline = baselineOption(o.baseline);
        const top = intOption(o.top, '--top', 1);
        const bundle = loadBundle(o.model);
        if (!log && o.db && o.id === undefined) throw new UserError('give the row to explain with --id (a value of --key)');
        if (log && o.id !== undefined) throw new UserError('--id picks a row of --db; a log is explained as it is');
        const rows = await readRows(bundle, rowSource(log ? [log] : [], o, bundle.inputs.table), o.key);
        if (rows.failures.length) throw new InputError(rows.failures[0].error);
        let row = 0;
        if (!log) {
          if (!rows.keyColumn) throw new UserError(`table has no key column: name one with --key`);
          const hits = rows.keys.flatMap((k, i) => (k === o.id ? [i] : []));
          if (hits.length === 0) throw new InputError(`no row with ${rows.keyColumn} = ${o.id}`);
          if (hits.length > 1) throw new InputError(`${hits.length} rows have ${rows.keyColumn} = ${o.id}; choose a key that names one row`);
          row = hits[0];
        }
        const x = explainRow(bundle, rows, row, baseline);
        const e = x.explanation;
        const p = { ood: [x.ood], oodReasons: [x.oodReasons], low: [x.low], high: [x.high] };
        const measured = x.measured;
        const sorted = [...e.contributions].sort((a, b) => Math.abs(b.shap) - Math.abs(a.shap));
        if (o.json) {
          const doc = {
            key: { column: rows.keyColumn, value: rows.keyColumn && rows.loaded.kinds[rows.keyColumn] === 'numeric' && !rows.keys[row].startsWith('#') ? Number(rows.keys[row]) : rows.keys[row] },
            path: rows.labels.path[row],
            jobId: rows.labels.jobId[row],
            baseline,
            base: e.base,
            output: x.output,
            prediction: x.prediction,
            measured,
            ood: p.ood[0],
            oodReasons: p.oodReasons[0],
            contributions: sorted.map((c) => ({ feature: c.feature, value: c.value, shap: c.shap })),
            members: e.members.map((m) => ({ type: m.type, weight: m.weight, base: Number.isFinite(m.base) ? m.base : null, output: m.output })),
          };
          process.stdout.write(safeJson(doc, 1));
          return;
        }
        const unit = targetUnit(bundle.inputs.target);
        const u = unit ? ` ${unit}` : '';
        const fmt = (v: number) => Number(v.toPrecision(3)).toLocaleString('en-US', { maximumSignificantDigits: 3 });
        const lines: string[] = [];
        lines.push(`${rows.keyColumn ?? 'row'} ${escapeTerminal(rows.keys[row])}: predicted ${fmt(x.prediction)}${u} (${fmt(p.low[0])} to ${fmt(p.high[0])})${measured !== null ? `, measured ${fmt(measured)}${u}` : ''}`);
        lines.push(p.ood[0] ? `OUT OF DISTRIBUTION: ${p.oodReasons[0].join('; ')} — the prediction is a guess` : 'within what the model learned (not OOD)');
        lines.push(
          `SHAP against ${baseline === 'zero' ? 'a job with no I/O (zero counters get no blame)' : 'the training data (path-dependent)'}: base ${e.base.toFixed(3)} + Σ shap ${(x.output - e.base).toFixed(3)} = ${x.output.toFixed(3)} = log10(1 + ${fmt(x.prediction)})`,
        );
        const costs = sorted.filter((c) => c.shap < 0).slice(0, top ?? 8);
        const gains = sorted.filter((c) => c.shap > 0).slice(0, top ?? 4);
        if (costs.length) lines.push('', 'Largest costs:', ...costs.map((c) => `  ${escapeTerminal(contributionText(c))}`));
        if (gains.length) lines.push('', 'Largest gains:', ...gains.map((c) => `  ${escapeTerminal(contributionText(c))}`));
        const zero = e.contributions.filter((c) => c.shap === 0);
        if (zero.length) lines.push('', `${zero.length} feature${zero.length > 1 ? 's' : ''} with no effect${baseline === 'zero' ? ' (equal to the baseline, e.g. zero counters)' : ''}: ${zero.slice(0, 6).map((c) => `${c.feature} = ${escapeTerminal(valueText(c.feature, c.value))}`).join(', ')}${zero.length > 6 ? ', …' : ''}`);
        process.stdout.write(`${lines.join('\n')}\n`);
      });
  },
};

export default cmd;
