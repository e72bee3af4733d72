import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { writeAllSync } from '../../util/output.js';
import { DEFAULT_DB, openStore } from '../../store/db.js';
import { buildSummary, renderSummary, type SummaryFormat } from '../../store/summary.js';

const SECTIONS = ['insights', 'levels', 'problems', 'interfaces', 'throughput', 'throughput_quantiles', 'apps', 'targets', 'clusters'];

const cmd: CommandModule = {
  name: 'summary',
  register(program: Command) {
    program
      .command('summary')
      .description('facility view of a job store: jobs per insight, level, problem and interface, throughput, top apps, latest clustering')
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--json', 'print JSON')
      .option('--csv', 'print CSV (one table per section; see --section)')
      .option('--md', 'print Markdown')
      .option('--section <id>', `only one section: ${SECTIONS.join(', ')}`)
      .option('--top <n>', 'rows in the per-code and per-app tables', '20')
      .action(async (o: { db?: string; json?: boolean; csv?: boolean; md?: boolean; section?: string; top: string }) => {
        const top = Number(o.top);
        if (!Number.isInteger(top) || top < 1) throw new UserError(`--top wants a positive whole number (got ${o.top})`);
        if (o.section && !SECTIONS.includes(o.section)) throw new UserError(`--section: unknown section ${o.section} (one of ${SECTIONS.join(', ')})`);
        const store = await openStore(o.db ?? DEFAULT_DB, { readOnly: true });
        let text: string;
        try {
          const s = await buildSummary(store, top);
          const format: SummaryFormat = o.json ? 'json' : o.csv ? 'csv' : o.md ? 'md' : 'text';
          text = renderSummary(s, format, o.section);
        } finally {
          store.close();
        }
        writeAllSync(1, Buffer.from(text, 'utf8'));
      });
  },
};

export default cmd;
