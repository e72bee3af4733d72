import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, UsageError } from '../contract/errors.js';
import { checkTables, openError, openStore, schemaVersion, sqlString } from './db.js';
import { SCHEMA_VERSION } from './schema.js';

export interface MergeStats {
  parts: number;
  /** New jobs rows taken from the parts. */
  jobs: number;
  /** Jobs rows skipped because their hash was already present. */
  duplicates: number;
  errors: number;
}

/**
 * Combines part databases (from `ingest --shard`) into one store. Each part is attached read-only and copied in one
 * transaction: jobs whose hash is new (with their files and fs metrics), sources and errors for paths not yet
 * known, sacct rows for job ids not yet known. Merging the same part twice adds nothing.
 */
export async function mergeStores(db: string, parts: readonly string[]): Promise<MergeStats> {
  if (parts.length === 0) throw new UsageError('merge: give the part databases to combine');
  const target = resolve(db);
  for (const p of parts) {
    if (!existsSync(p)) throw new InputError(`merge: no such database ${p}`);
    if (resolve(p) === target) throw new UsageError(`merge: ${p} is the output database itself`);
  }
  const store = await openStore(db);
  const con = store.con;
  const stats: MergeStats = { parts: 0, jobs: 0, duplicates: 0, errors: 0 };
  try {
    for (const p of parts) {
      try {
        await con.run(`ATTACH ${sqlString(resolve(p))} AS part (READ_ONLY)`);
      } catch (err) {
        throw openError(p, err);
      }
      try {
        const v = await schemaVersion(con, 'part', `merge: ${p}`);
        if (v !== SCHEMA_VERSION) {
          throw new InputError(
            v === 0 ? `merge: ${p} is not an IOLens job store` : `merge: ${p} has store schema ${v}, expected ${SCHEMA_VERSION} (open it once with this IOLens's ingest to migrate it)`,
          );
        }
        await checkTables(con, `merge: ${p}`, 'part');
        await con.run('BEGIN TRANSACTION');
        try {
          await con.run(`CREATE OR REPLACE TEMP TABLE new_hashes AS SELECT hash FROM part.jobs ANTI JOIN jobs USING (hash)`);
          const n = Number((await con.runAndReadAll('SELECT count(*) FROM new_hashes')).getRows()[0][0]);
          const total = Number((await con.runAndReadAll('SELECT count(*) FROM part.jobs')).getRows()[0][0]);
          await con.run(`INSERT INTO jobs BY NAME SELECT * FROM part.jobs WHERE hash IN (SELECT hash FROM new_hashes)`);
          await con.run(`INSERT INTO files SELECT * FROM part.files WHERE hash IN (SELECT hash FROM new_hashes)`);
          await con.run(`INSERT INTO fs_job_metrics SELECT * FROM part.fs_job_metrics WHERE hash IN (SELECT hash FROM new_hashes)`);
          await con.run(`INSERT INTO reports SELECT * FROM part.reports ANTI JOIN reports USING (hash)`);
          await con.run(`INSERT INTO sources SELECT * FROM part.sources ANTI JOIN sources USING (path)`);
          const e0 = Number((await con.runAndReadAll('SELECT count(*) FROM ingest_errors')).getRows()[0][0]);
          await con.run(`INSERT INTO ingest_errors SELECT * FROM part.ingest_errors ANTI JOIN ingest_errors USING (path)`);
          const e1 = Number((await con.runAndReadAll('SELECT count(*) FROM ingest_errors')).getRows()[0][0]);
          await con.run(`INSERT INTO sacct SELECT * FROM part.sacct WHERE job_id NOT IN (SELECT job_id FROM sacct)`);
          await con.run('COMMIT');
          stats.jobs += n;
          stats.duplicates += total - n;
          stats.errors += e1 - e0;
          stats.parts++;
        } catch (err) {
          await con.run('ROLLBACK').catch(() => undefined);
          throw err;
        }
      } finally {
        await con.run('DETACH part');
      }
    }
  } finally {
    store.close();
  }
  return stats;
}
