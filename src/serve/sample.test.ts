import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
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
