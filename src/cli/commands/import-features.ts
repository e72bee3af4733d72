import type { Command } from 'commander';
import type { CommandModule } from './command.js';
import { DEFAULT_DB } from '../../store/db.js';
import { importFeatures } from '../../store/import-features.js';

const cmd: CommandModule = {
  name: 'import-features',
  register(program: Command) {
    program
      .command('import-features')
      .description('load an external per-job feature table (CSV or CSV.gz) and join it to the jobs by job id')
      .argument('<file>', 'feature table, e.g. TOKIO-ABC cori-summaries_*.csv.gz')
      .option('--db <file>', `database file (default ${DEFAULT_DB})`)
      .option('--table <name>', 'name: data in features_<name>, joined view jobs_features_<name> (default: from the file name)')
      .option('--key <column>', 'job id column (default: _jobid, jobid, job_id, darshan_jobid or JobIDRaw)')
      .option('-q, --quiet', 'no summary line')
      .action(async (file: string, o: { db?: string; table?: string; key?: string; quiet?: boolean }) => {
        const db = o.db ?? DEFAULT_DB;
        const r = await importFeatures({ db, file, table: o.table, key: o.key });
        if (!o.quiet) {
          process.stderr.write(
            `${db}: ${r.rows} rows × ${r.columns} columns into ${r.table}${r.indexColumn ? ' (data rows carry an unnamed leading index column: loaded as _row)' : ''}; ` +
              `key ${r.key}; ${r.matched} rows match a job in the store; joined view ${r.view}\n`,
          );
        }
      });
  },
};

export default cmd;
