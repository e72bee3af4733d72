import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { writeAllSync } from '../../util/output.js';
import { DEFAULT_DB, openStore } from '../../store/db.js';
import { markdownCell, rowsToObjects, tableCsv, tableMarkdown, tableText, type Value } from '../../render/table.js';
import { plain } from '../../store/values.js';
import { QUERY_EXAMPLE, userQuery } from '../../store/queries/tables.js';
import { safeJson } from '../../render/json.js';

const cmd: CommandModule = {
  name: 'query',
  register(program: Command) {
    program
      .command('query')
      .description('run SQL on a job store (read-only) and print the result')
      .argument('<sql>', `SQL, e.g. "${QUERY_EXAMPLE}"`)
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--json', 'print a JSON array of objects')
      .option('--csv', 'print CSV')
      .option('--md', 'print a Markdown table')
      .action(async (sql: string, o: { db?: string; json?: boolean; csv?: boolean; md?: boolean }) => {
        const store = await openStore(o.db ?? DEFAULT_DB, { readOnly: true });
        let columns: string[];
        let rows: Value[][];
        try {
          const r = await userQuery(store, sql);
          columns = r.columns;
          rows = r.rows.map((row) => row.map(plain));
        } catch (err) {
          throw new UserError(`query failed: ${(err as Error).message.split('\n')[0]}`);
        } finally {
          store.close();
        }
        const text = o.json
          ? safeJson(rowsToObjects(columns, rows), 1)
          : o.csv
            ? tableCsv(columns, rows)
            : o.md
              ? tableMarkdown(columns, rows)
              : tableText(columns, rows);
        writeAllSync(1, Buffer.from(text, 'utf8'));
      });
  },
};

export default cmd;
