import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { createStatements } from './schema.js';

/**
 * The store is one interface (issue 40): SQL against its schema, and calls on its DuckDB connection, live in
 * src/store and nowhere else. Every other source file (tests excepted) goes through the store's named operations.
 * This test scans src/ for statements near a table of the schema and for the raw connection, so that a new
 * statement outside src/store fails here.
 */

/** The store's tables and views, from the schema module's own statements, and the catalogue SQL can read. */
function schemaTables(): string[] {
  const names = new Set<string>(['information_schema']);
  for (const s of createStatements()) {
    const m = /^CREATE (?:TABLE IF NOT EXISTS|OR REPLACE VIEW|TABLE|VIEW) ("?)(\w+)\1/.exec(s);
    if (m) names.add(m[2]);
  }
  return [...names].sort();
}

/** Source files where DuckDB is used for something that is not the store, with the reason. */
const NOT_THE_STORE: Record<string, string> = {
  'fuzz/seeds.ts': 'writes Parquet trace seeds with an in-memory DuckDB (a development tool; no store is opened)',
};

const KEYWORD = /\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\b/g;
/** How far after a keyword a table name still counts as the statement's (one statement rarely spans more). */
const REACH = 300;
const RAW = [
  { re: /\bfrom\s+['"]@duckdb\/node-api['"]|import\(\s*['"]@duckdb\/node-api['"]\s*\)/, what: 'imports DuckDB' },
  { re: /\b(runAndReadAll|runAndRead|createAppender|extractStatements|streamAndReadAll)\s*\(/, what: 'calls the DuckDB connection' },
  { re: /\.con\b/, what: "uses the store's connection" },
  { re: /\.instance\s*\.\s*connect\s*\(/, what: "opens a connection on the store's instance" },
];

/** The text without comments (block comments, and line comments that start a line or follow whitespace). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|\s)\/\/.*$/gm, '$1');
}

/**
 * Where a source text holds SQL against the store's schema or calls the raw connection: one line per finding,
 * `LINE: what`. Empty for a file that only calls the store's operations.
 */
export function sqlFindings(text: string, tables: readonly string[]): string[] {
  const src = withoutComments(text);
  const lineOf = (i: number) => src.slice(0, i).split('\n').length;
  const table = new RegExp(`(?<![\\w.])"?(${tables.join('|')})"?(?![\\w])`);
  const out: string[] = [];
  for (const m of src.matchAll(KEYWORD)) {
    const after = src.slice(m.index, m.index + REACH);
    const t = table.exec(after);
    if (t) out.push(`${lineOf(m.index)}: ${m[1]} … ${t[1]}`);
  }
  for (const { re, what } of RAW) {
    for (const m of src.matchAll(new RegExp(re.source, 'g'))) out.push(`${lineOf(m.index)}: ${what} (${m[0].trim()})`);
  }
  return out;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.integration.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const SRC = join(REPO_ROOT, 'src');

test('the schema names its tables (the scanner looks for these)', () => {
  const tables = schemaTables();
  for (const t of ['jobs', 'files', 'reports', 'cluster_runs', 'clusters', 'cluster_members', 'sources', 'ingest_errors', 'iolens_meta', 'insights', 'checks']) {
    assert.ok(tables.includes(t), `${t} missing from ${tables.join(', ')}`);
  }
});

test('the scanner catches planted SQL and raw connection calls, and passes operation calls', () => {
  const tables = schemaTables();
  const planted = [
    "const n = await x('SELECT count(*) FROM jobs');",
    'await con.run(`INSERT INTO reports VALUES (?, ?)`);',
    "const q = `UPDATE cluster_runs SET note = 'x'`;",
    "await db.run('DELETE FROM \"ingest_errors\" WHERE path = ?');",
    "const t = 'SELECT column_name FROM information_schema.columns';",
  ];
  for (const p of planted) assert.notDeepEqual(sqlFindings(p, tables), [], `not caught: ${p}`);
  assert.match(sqlFindings("import type { DuckDBConnection } from '@duckdb/node-api';", tables)[0], /imports DuckDB/);
  assert.match(sqlFindings('const r = await store.con.runAndReadAll(sql);', tables).join('\n'), /calls the DuckDB connection/);
  assert.match(sqlFindings('await store.con.query(sql);', tables)[0], /store's connection/);
  assert.match(sqlFindings('const s = await buildSummary(store.con, 5);', tables)[0], /uses the store's connection/);
  assert.match(sqlFindings('const c = await store.instance.connect();', tables)[0], /opens a connection/);
  // Over several lines, the line of the keyword.
  assert.deepEqual(sqlFindings('const a = 1;\nconst sql = `\n  SELECT hash,\n    app\n  FROM jobs`;', tables), ['3: SELECT … jobs']);
  // Calls of operations, words that only look like SQL, and comments pass.
  const clean = [
    'const page = await jobsPage(store, filter);',
    "const hist = await appHistory(store, 'ior');",
    '// SELECT hash FROM jobs (what jobsPage runs)',
    '/* INSERT INTO reports: see storeUploads */ const x = 1;',
    "const label = 'Select the jobs to compare';",
    'await corpus.run(i); check.run(ctx);',
    "const u = 'UPDATE' + ' the page';",
    'const all = [1].concat([2]); const c = console;',
  ];
  for (const c of clean) assert.deepEqual(sqlFindings(c, tables), [], c);
});

test('no SQL against the store outside src/store, and no raw connection', () => {
  const tables = schemaTables();
  const found: string[] = [];
  for (const abs of sourceFiles(SRC)) {
    const file = relative(SRC, abs).split('\\').join('/');
    if (file.startsWith('store/') || file in NOT_THE_STORE) continue;
    for (const f of sqlFindings(readFileSync(abs, 'utf8'), tables)) found.push(`src/${file}:${f}`);
  }
  assert.deepEqual(found, [], 'move these statements into a named operation of src/store');
});

test('the files excused from the scan exist and still need the excuse', () => {
  const tables = schemaTables();
  for (const file of Object.keys(NOT_THE_STORE)) {
    const text = readFileSync(join(SRC, file), 'utf8');
    assert.notDeepEqual(sqlFindings(text, tables), [], `${file} no longer uses DuckDB: remove it from NOT_THE_STORE`);
  }
});
