import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/corpus.js';
import { readTokio, TOKIO_CORI, TOKIO_TARGET } from '../learn/testing/tokio.js';
import type { Table } from '../learn/index.js';
import { escapeCsv } from '../text/escape.js';
import { readStoreTable } from './source.js';

// Issue 53, item 3: a model runs on any table of any machine. Mira's TOKIO-ABC file has no Lustre server metrics,
// no fshealth, scheduler or topology columns: `predict` and `explain` take what the table lacks as missing values,
// each row saying so, and blame none of it. And rows keyed by a column that repeats (TOKIO's `_jobid`) come in one
// order however they were stored.

const BIN = join(REPO_ROOT, 'bin', 'iolens.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const tokio = readTokio(TOKIO_CORI);

/** Some rows of the TOKIO table as a CSV file with only the columns `keep` accepts. */
function csv(file: string, t: Table, rows: readonly number[], keep: (c: string) => boolean): void {
  const names = Object.keys(t.columns).filter((c) => c !== '_runtime' && keep(c));
  const cell = (v: unknown) => (v === null || (typeof v === 'number' && Number.isNaN(v)) ? '' : escapeCsv(String(v)));
  writeFileSync(file, `${names.join(',')}\n${rows.map((r) => names.map((c) => cell(t.columns[c][r])).join(',')).join('\n')}\n`);
}

/** What Mira's table has of Cori's columns: no Lustre server metrics, OST health, scheduler or network topology. */
const miraLike = (c: string) => !/^(fs_|fshealth_|jobsdb_|topology_)/.test(c) && c !== '_file_system';

test('a table lacking the model columns (Mira-like): predict and explain run, every row says so, nothing missing is blamed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-anytable-'));
  try {
    const cori = join(dir, 'cori.duckdb');
    assert.equal(cli('import-features', TOKIO_CORI, '--db', cori, '--table', 'tokio', '--key', '_row', '-q').status, 0);
    const model = join(dir, 'm.json');
    // small: ridge and GBDT on a quarter of the jobs
    const t = cli('train', '--db', cori, '--table', 'tokio', '--target', TOKIO_TARGET, '--features', join(REPO_ROOT, 'samples', 'tokio-abc.features'), '--time', '_datetime_start', '--seed', '1', '--models', 'gbdt,ridge', '--where', '_row % 4 = 0', '--out', model, '-q');
    assert.equal(t.status, 0, t.stderr);
    const mira = join(dir, 'mira.csv');
    const rows = Array.from({ length: 60 }, (_, i) => i * 131);
    csv(mira, tokio, rows, miraLike);
    const db = join(dir, 'mira.duckdb');
    const imp = cli('import-features', mira, '--db', db, '--table', 'mira', '--key', '_row', '-q');
    assert.equal(imp.status, 0, imp.stderr);

    const p = cli('predict', '--model', model, '--db', db, '--table', 'mira', '--json');
    assert.equal(p.status, 0, p.stderr);
    const out = JSON.parse(p.stdout) as { _row: number; prediction: number; ood: boolean; oodReasons: string[] }[];
    assert.equal(out.length, 60);
    for (const o of out) {
      assert.ok(Number.isFinite(o.prediction) && o.prediction >= 0);
      assert.equal(o.ood, true);
      assert.match(o.oodReasons[0], /^the rows lack 7\d of the model's columns \(fs_ave_bytes_read_per_sec, .*\): taken as missing values$/);
    }
    const csvOut = cli('predict', '--model', model, '--db', db, '--table', 'mira', '--csv');
    assert.equal(csvOut.status, 0, csvOut.stderr);
    assert.ok(csvOut.stdout.trim().split('\n').slice(1).every((l) => /,true,"the rows lack 7\d of the model's columns/.test(l)), 'each CSV row says so');

    const e = cli('explain', '--model', model, '--db', db, '--table', 'mira', '--id', String(out[3]._row), '--json');
    assert.equal(e.status, 0, e.stderr);
    const ex = JSON.parse(e.stdout) as { prediction: number; ood: boolean; contributions: { feature: string; shap: number }[]; base: number; output: number };
    assert.equal(ex.prediction, out[3].prediction);
    const lacking = ex.contributions.filter((c) => !miraLike(c.feature));
    assert.ok(lacking.length >= 70);
    assert.deepEqual(lacking.filter((c) => c.shap !== 0), [], 'a column the table lacks is never a cause');
    assert.ok(Math.abs(ex.base + ex.contributions.reduce((s, c) => s + c.shap, 0) - ex.output) < 1e-9);
    const text = cli('explain', '--model', model, '--db', db, '--table', 'mira', '--id', String(out[3]._row));
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^OUT OF DISTRIBUTION: the rows lack 7\d of the model's columns/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rows keyed by a column that repeats (_jobid) are read in one order, whatever order they were stored in', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-ties-'));
  try {
    const jobid = tokio.columns._jobid as Float64Array;
    // the jobs stored in the file's order and reversed
    // every job (about 1,200 ids repeat): enough rows that the sort of a repeating key alone returns ties in storage order
    const rows = Array.from(jobid.keys());
    assert.ok(new Set(rows.map((r) => jobid[r])).size < rows.length, 'the rows repeat their key');
    const read = async (order: number[], name: string) => {
      const f = join(dir, `${name}.csv`);
      csv(f, tokio, order, (c) => c === '_jobid' || c === '_row' || c.startsWith('darshan_tot_') || c === TOKIO_TARGET);
      const db = join(dir, `${name}.duckdb`);
      assert.equal(cli('import-features', f, '--db', db, '--table', 't', '--key', '_jobid', '-q').status, 0);
      return (await readStoreTable(db, 't', ['darshan_tot_bytes_written_posix', TOKIO_TARGET, '_row'])).table;
    };
    const a = await read(rows, 'forward');
    const b = await read([...rows].reverse(), 'reversed');
    assert.deepEqual(Array.from(a.columns._row as Float64Array), Array.from(b.columns._row as Float64Array));
    assert.deepEqual(Array.from(a.columns[TOKIO_TARGET] as Float64Array), Array.from(b.columns[TOKIO_TARGET] as Float64Array));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
