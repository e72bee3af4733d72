import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../contract/errors.js';
import { openStore, sqlString } from './db.js';

/**
 * File-system server metrics (a CSV time series: timestamp, target, metric, value — the shape LMT or similar
 * Lustre monitoring exports) aggregated over each job's run window, as Kim et al.: for every job and metric, the
 * number of samples, their mean and their 95th percentile, over all targets together (target NULL) and per target
 * with `perTarget`. Timestamps may be epoch seconds or ISO-8601 (read as UTC).
 */
export async function loadFsMetrics(db: string, file: string, opts: { perTarget?: boolean } = {}): Promise<{ samples: number; jobs: number; rows: number }> {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  const store = await openStore(db);
  const con = store.con;
  try {
    const src = sqlString(resolve(file));
    let cols: string[];
    try {
      const d = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_csv(${src}, header = true, all_varchar = true)`);
      cols = d.getRows().map((r) => String(r[0]));
    } catch (err) {
      throw new InputError(`${file}: cannot read as CSV (${(err as Error).message.split('\n')[0]})`);
    }
    const find = (names: string[]) => cols.find((c) => names.includes(c.toLowerCase()));
    const ts = find(['timestamp', 'time', 'ts', 'epoch']);
    const target = find(['target', 'server', 'ost', 'mdt', 'host', 'node']);
    const metric = find(['metric', 'name', 'counter']);
    const value = find(['value', 'val']);
    if (!ts || !metric || !value) {
      throw new InputError(`${file}: need columns timestamp, metric, value (and optionally target/server); found ${cols.join(', ')}`);
    }
    const q = (c: string) => `"${c.replace(/"/g, '""')}"`;
    await con.run(`CREATE OR REPLACE TEMP TABLE fsm AS
      SELECT coalesce(TRY_CAST(${q(ts)} AS DOUBLE), epoch(TRY_CAST(${q(ts)} AS TIMESTAMP))) AS ts,
             ${target ? `${q(target)}` : 'NULL'} AS target, ${q(metric)} AS metric, TRY_CAST(${q(value)} AS DOUBLE) AS value
      FROM read_csv(${src}, header = true, all_varchar = true)`);
    const bad = await con.runAndReadAll(`SELECT count(*) FILTER (WHERE ts IS NULL OR value IS NULL), count(*) FROM fsm`);
    const [nBad, nAll] = bad.getRows()[0].map(Number);
    if (nAll > 0 && nBad === nAll) throw new InputError(`${file}: no row has a readable timestamp and value`);
    await con.run('BEGIN TRANSACTION');
    try {
      await con.run(`DELETE FROM fs_job_metrics WHERE metric IN (SELECT DISTINCT metric FROM fsm)`);
      await con.run(`INSERT INTO fs_job_metrics
        SELECT j.hash, m.metric, NULL, count(*), avg(m.value), quantile_cont(m.value, 0.95)
        FROM jobs j JOIN fsm m ON m.ts >= j.start_epoch AND m.ts <= j.end_epoch
        WHERE m.value IS NOT NULL GROUP BY j.hash, m.metric`);
      if (opts.perTarget) {
        await con.run(`INSERT INTO fs_job_metrics
          SELECT j.hash, m.metric, m.target, count(*), avg(m.value), quantile_cont(m.value, 0.95)
          FROM jobs j JOIN fsm m ON m.ts >= j.start_epoch AND m.ts <= j.end_epoch
          WHERE m.value IS NOT NULL AND m.target IS NOT NULL GROUP BY j.hash, m.metric, m.target`);
      }
      await con.run('COMMIT');
    } catch (err) {
      await con.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
    const r = await con.runAndReadAll(`SELECT count(DISTINCT hash), count(*) FROM fs_job_metrics WHERE metric IN (SELECT DISTINCT metric FROM fsm)`);
    const [jobs, rows] = r.getRows()[0].map(Number);
    return { samples: nAll - nBad, jobs, rows };
  } finally {
    store.close();
  }
}
