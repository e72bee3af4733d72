import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { InputError } from '../contract/errors.js';
import { openStore, sqlString } from './db.js';

/** Counts the fields of one CSV line (double-quoted fields may hold commas). */
export function csvFieldCount(line: string, delim = ','): number {
  let n = 1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === delim && !quoted) n++;
  }
  return n;
}

/** Splits a CSV header line into names. */
export function csvHeader(line: string, delim = ','): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
    } else if (ch === delim && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim());
}

/** The first `n` lines of a (possibly gzip-compressed) text file. */
async function firstLines(file: string, n: number): Promise<string[]> {
  const fd = openSync(file, 'r');
  const magic = Buffer.alloc(2);
  readSync(fd, magic, 0, 2, 0);
  closeSync(fd);
  const gz = magic[0] === 0x1f && magic[1] === 0x8b;
  const stream = gz ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  let text = '';
  const lines: string[] = [];
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      let i: number;
      while ((i = text.indexOf('\n')) >= 0 && lines.length < n) {
        lines.push(text.slice(0, i).replace(/\r$/, ''));
        text = text.slice(i + 1);
      }
      if (lines.length >= n) break;
    }
  } finally {
    (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
  if (lines.length < n && text !== '') lines.push(text);
  return lines;
}

export interface ImportOptions {
  db: string;
  file: string;
  /** Table name suffix: the data lands in `features_<table>`. Default: the file's base name. */
  table?: string;
  /** Column holding the job id. Default: the first of _jobid, jobid, job_id, darshan_jobid, JobID. */
  key?: string;
}

export interface ImportResult {
  table: string;
  view: string;
  rows: number;
  columns: number;
  key: string;
  /** Rows whose job id matches a row of `jobs`. */
  matched: number;
  /** True when data rows had one field more than the header (an unnamed leading index column, named `_row`). */
  indexColumn: boolean;
}

const KEYS = ['_jobid', 'jobid', 'job_id', 'darshan_jobid', 'jobidraw'];

/** A safe SQL identifier part from a file name. */
export function tableName(file: string): string {
  const b = basename(file).replace(/\.(csv|tsv|txt)(\.gz)?$/i, '').replace(/\.gz$/i, '');
  const s = b.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return s === '' ? 'external' : /^\d/.test(s) ? `t_${s}` : s;
}

/**
 * Loads an external per-job feature table (CSV, optionally gzip) into `features_<name>` and creates the view
 * `jobs_features_<name>` joining it to `jobs` on job id. Handles the pandas trap where the header omits the row
 * index column that every data row still carries (TOKIO-ABC): the extra leading field becomes `_row`.
 */
export async function importFeatures(opts: ImportOptions): Promise<ImportResult> {
  const file = resolve(opts.file);
  if (!existsSync(file)) throw new InputError(`${opts.file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(`${opts.file}: a directory, not a CSV file`);
  let lines: string[];
  try {
    lines = await firstLines(file, 2);
  } catch (err) {
    throw new InputError(`${opts.file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (lines.length === 0 || lines[0].trim() === '') throw new InputError(`${opts.file}: empty file`);
  const delim = lines[0].includes('\t') && !lines[0].includes(',') ? '\t' : ',';
  let names = csvHeader(lines[0], delim);
  const dataFields = lines.length > 1 ? csvFieldCount(lines[1], delim) : names.length;
  let indexColumn = false;
  if (dataFields === names.length + 1) {
    names = ['_row', ...names];
    indexColumn = true;
  } else if (dataFields !== names.length) {
    throw new InputError(`${opts.file}: the header has ${names.length} names but the first data row has ${dataFields} fields`);
  }
  const seen = new Map<string, number>();
  names = names.map((n, i) => {
    const base = n === '' ? `column${i}` : n;
    const k = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), k);
    return k === 1 ? base : `${base}_${k}`;
  });
  const key = opts.key ?? names.find((n) => KEYS.includes(n.toLowerCase()));
  if (!key || !names.includes(key)) {
    throw new InputError(`${opts.file}: no job id column${opts.key ? ` named ${opts.key}` : ` (looked for ${KEYS.join(', ')}; name one with --key)`}`);
  }
  const name = opts.table ? tableName(opts.table) : tableName(file);
  const table = `features_${name}`;
  const view = `jobs_features_${name}`;
  const store = await openStore(opts.db);
  const con = store.con;
  try {
    const nameList = `[${names.map(sqlString).join(', ')}]`;
    await con.run('BEGIN TRANSACTION');
    try {
      await con.run(
        `CREATE OR REPLACE TABLE "${table}" AS SELECT * FROM read_csv(${sqlString(file)}, header = false, skip = 1, delim = ${sqlString(delim)}, names = ${nameList}, sample_size = -1, null_padding = true)`,
      );
      const q = `"${key.replace(/"/g, '""')}"`;
      await con.run(
        `CREATE OR REPLACE VIEW "${view}" AS SELECT j.hash, j.app AS store_app, f.* FROM "${table}" f LEFT JOIN jobs j ON j.job_id = TRY_CAST(f.${q} AS BIGINT)`,
      );
      await con.run(
        `INSERT OR REPLACE INTO iolens_meta VALUES (${sqlString(`features:${name}`)}, ${sqlString(JSON.stringify({ file, key, indexColumn }))})`,
      );
      await con.run('COMMIT');
    } catch (err) {
      await con.run('ROLLBACK').catch(() => undefined);
      if (err instanceof InputError) throw err;
      throw new InputError(`${opts.file}: cannot load (${(err as Error).message.split('\n')[0]})`);
    }
    const q = `"${key.replace(/"/g, '""')}"`;
    const r = await con.runAndReadAll(
      `SELECT (SELECT count(*) FROM "${table}"), (SELECT count(*) FROM "${table}" f WHERE TRY_CAST(f.${q} AS BIGINT) IN (SELECT job_id FROM jobs))`,
    );
    const [rows, matched] = r.getRows()[0].map(Number);
    return { table, view, rows, columns: names.length, key, matched, indexColumn };
  } finally {
    store.close();
  }
}

