import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { InputError } from '../../contract/errors.js';
import { escapeTerminal } from '../../text/escape.js';
import { baselineGate, blameLines, blameText, oodWords, explainRow, loadBundle, readRows, targetUnit, valueText } from '../../models/index.js';
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
      .description("explain one job's predicted throughput feature by feature (exact SHAP against a reference per feature: none of a counter, the typical value of a setting or of the context)")
      .argument('[log]', 'a Darshan log')
      .option('--model <file>', 'model file written by iolens train')
      .option('--db <file>', 'database file: explain a row of a job store table instead of a log')
      .option('--table <name>', "table or view (default: the one the model was trained on)")
      .option('--where <sql>', 'read only the rows matching this SQL condition (history still needs the earlier ones)')
      .option('--key <column>', "the column --id is a value of (default: the model's key)")
      .option('--id <value>', 'the row to explain: its key value')
      .option('--json', 'print {base, output, contributions: [{feature, value, shap}], …} (base + Σ shap = output = log10(1 + prediction))')
      .option('--baseline <kind>', 'typical (default): counters against 0, settings and context against their typical training value, constants never blamed; zero: everything against 0 (AIIO); path: path-dependent TreeSHAP')
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
        // near duplicates as one line, each with what it was weighed against (src/models/reference.ts)
        // the gate of `report --model`: a model no better than the median of its training jobs names no causes
        const notUsed = baselineGate(bundle.model);
        const lines = notUsed ? [] : blameLines(bundle.model, e.contributions);
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
            lines: lines.map((l) => ({ ...l, text: blameText(bundle.model, l) })),
            ...(notUsed ? { notUsed: `${notUsed}: no learned diagnosis` } : {}),
            members: e.members.map((m) => ({ type: m.type, weight: m.weight, base: Number.isFinite(m.base) ? m.base : null, output: m.output })),
          };
          process.stdout.write(safeJson(doc, 1));
          return;
        }
        const unit = targetUnit(bundle.inputs.target);
        const u = unit ? ` ${unit}` : '';
        const fmt = (v: number) => Number(v.toPrecision(3)).toLocaleString('en-US', { maximumSignificantDigits: 3 });
        const out: string[] = [];
        out.push(`${rows.keyColumn ?? 'row'} ${escapeTerminal(rows.keys[row])}: predicted ${fmt(x.prediction)}${u} (${fmt(p.low[0])} to ${fmt(p.high[0])})${measured !== null ? `, measured ${fmt(measured)}${u}` : ''}`);
        out.push(p.ood[0] ? `OUT OF DISTRIBUTION: ${p.oodReasons[0].join('; ')} — ${oodWords(bundle.model)}` : 'within what the model learned (not OOD)');
        const against =
          baseline === 'typical'
            ? 'a reference per feature (counters against none, settings and context against the typical training job, constants never blamed)'
            : baseline === 'zero'
              ? 'a job with no I/O (zero counters get no blame)'
              : 'the training data (path-dependent)';
        out.push(`SHAP against ${against}: base ${e.base.toFixed(3)} + Σ shap ${(x.output - e.base).toFixed(3)} = ${x.output.toFixed(3)} = log10(1 + ${fmt(x.prediction)})`);
        const costs = lines.filter((c) => c.shap < 0).slice(0, top ?? 8);
        const gains = lines.filter((c) => c.shap > 0).slice(0, top ?? 4);
        // only the typical baseline weighs features against typical values; the others name no reference
        const say = (l: (typeof lines)[number]) => `  ${escapeTerminal(blameText(bundle.model, baseline === 'typical' ? l : { ...l, against: 'own' }))}`;
        if (notUsed) out.push('', `No causes: ${notUsed}.`);
        if (costs.length) out.push('', 'Largest costs:', ...costs.map(say));
        if (gains.length) out.push('', 'Largest gains:', ...gains.map(say));
        const zero = e.contributions.filter((c) => c.shap === 0);
        if (zero.length) out.push('', `${zero.length} feature${zero.length > 1 ? 's' : ''} with no effect${baseline === 'path' ? '' : ' (equal to their reference: zero counters, typical settings, columns constant in training)'}: ${zero.slice(0, 6).map((c) => `${c.feature} = ${escapeTerminal(valueText(c.feature, c.value))}`).join(', ')}${zero.length > 6 ? ', …' : ''}`);
        process.stdout.write(`${out.join('\n')}\n`);
      });
  },
};

export default cmd;
