import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';
import { DEFAULT_DB, openStore } from '../../store/db.js';
import { exportParquet } from '../../store/export.js';

const cmd: CommandModule = {
  name: 'export',
  register(program: Command) {
    program
      .command('export')
      .description('write the job store tables as Parquet files (for pandas and Spark)')
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--parquet <dir>', 'output folder: one <table>.parquet per table')
      .option('-q, --quiet', 'no summary lines')
      .option('--force', 'overwrite existing <table>.parquet files in the output folder')
      .action(async (o: { db?: string; parquet?: string; quiet?: boolean; force?: boolean }) => {
        if (!o.parquet) throw new UserError('export: say where, e.g. --parquet out/');
        const store = await openStore(o.db ?? DEFAULT_DB, { readOnly: true, external: true });
        try {
          const files = await exportParquet(store, o.parquet, { force: !!o.force });
          if (!o.quiet) for (const f of files) process.stderr.write(`${f.file}: ${f.rows} rows (${f.table})\n`);
        } finally {
          store.close();
        }
      });
  },
};

export default cmd;
