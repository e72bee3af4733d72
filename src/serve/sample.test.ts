import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle } from '../models/index.js';
import { openStore } from '../store/db.js';
import { plain } from '../store/values.js';
import { ensureSampleStore } from './sample.js';

test('the sample store of iolens serve --sample: the bundled log and a synthetic archive, clustered, with a model; built once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-sample-'));
  try {
    const lines: string[] = [];
    const s = await ensureSampleStore(join(dir, 'sample'), (l) => lines.push(l), 300);
    assert.equal(s.built, true);
    assert.match(lines[0], /^building the sample store in /);
    const st = await openStore(s.db, { readOnly: true });
    try {
      const q = async (sql: string) => (await st.con.runAndReadAll(sql)).getRows().map((r) => r.map(plain));
      assert.deepEqual(await q('SELECT count(*)::INTEGER FROM jobs'), [[301]]);
      assert.deepEqual(await q("SELECT count(*)::INTEGER FROM jobs WHERE path LIKE '%samples/ior-hdf5-indep-small-write-4k.darshan'"), [[1]]);
      // every job's log is where the job says, so that its page can show its report (the staging folder is gone)
      const paths = (await q('SELECT path FROM jobs UNION ALL SELECT path FROM sources')).map((r) => String(r[0]));
      assert.equal(paths.length, 602);
      assert.deepEqual(paths.filter((p) => !existsSync(p)), []);
      assert.ok(paths.filter((p) => p.startsWith(join(dir, 'sample', 'logs'))).length >= 600);
      const [[runs, members]] = await q('SELECT (SELECT count(*) FROM cluster_runs)::INTEGER, (SELECT count(*) FROM cluster_members)::INTEGER');
      assert.deepEqual([runs, members], [1, 301]);
      const [[selected]] = await q('SELECT count(*)::INTEGER FROM clusters WHERE selected');
      assert.ok((selected as number) >= 2, `${selected} clusters`);
    } finally {
      st.close();
    }
    // The model is a model file of iolens train on the jobs table: its default features, which hold no time column.
    const model = loadBundle(s.model);
    assert.equal(model.inputs.target, 'io_mibs');
    assert.equal(model.inputs.table, 'jobs');
    assert.ok(!model.model.preprocessor.features.some((f) => /_time$|_seconds$/.test(f.name)), 'no feature that is a time');
    assert.deepEqual(await ensureSampleStore(join(dir, 'sample'), () => assert.fail('built twice'), 300), { ...s, built: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two first starts at once: each builds in its own staging folder, one complete store is kept, nothing left behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-sample-race-'));
  try {
    const target = join(dir, 'sample');
    // two processes, as two `iolens serve --sample` started together
    const script = `import { ensureSampleStore } from ${JSON.stringify(new URL('./sample.js', import.meta.url).href)};
const s = await ensureSampleStore(${JSON.stringify(target)}, () => {}, 60);
console.log(JSON.stringify(s));`;
    const run = () =>
      new Promise<{ code: number | null; out: string; err: string }>((res) => {
        const c = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        c.stdout.on('data', (d: Buffer) => (out += d.toString()));
        c.stderr.on('data', (d: Buffer) => (err += d.toString()));
        c.on('exit', (code) => res({ code, out, err }));
      });
    const [a, b] = await Promise.all([run(), run()]);
    assert.equal(a.code, 0, a.err);
    assert.equal(b.code, 0, b.err);
    const built = [a, b].map((r) => (JSON.parse(r.out) as { built: boolean }).built);
    assert.ok(built.includes(true), 'one of them built it');
    const st = await openStore(join(target, 'sample.duckdb'), { readOnly: true });
    try {
      assert.deepEqual((await st.con.runAndReadAll('SELECT count(*)::INTEGER FROM jobs')).getRows().map((r) => r.map(plain)), [[61]]);
    } finally {
      st.close();
    }
    assert.deepEqual(readdirSync(dir), ['sample'], 'no staging folder left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
