import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { DEFAULT_DB } from '../../store/db.js';
import { mergeStores } from '../../store/merge.js';

const cmd: CommandModule = {
  name: 'merge',
  register(program: Command) {
    program
      .command('merge')
      .description('combine job-store parts (from ingest --shard) into one database')
      .argument('<parts...>', 'part databases')
      .option('--db <file>', `output database (default ${DEFAULT_DB}); created if missing, added to if present`)
      .option('-q, --quiet', 'no summary line')
      .action(async (parts: string[], o: { db?: string; quiet?: boolean }) => {
        const db = o.db ?? DEFAULT_DB;
        const st = await mergeStores(db, parts);
        if (!o.quiet) process.stderr.write(`${db}: merged ${st.parts} parts: ${st.jobs} new jobs, ${st.duplicates} already present, ${st.errors} errors\n`);
      });
  },
};

export default cmd;
