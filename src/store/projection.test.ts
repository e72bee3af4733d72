import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { corpusLogs, REPO_ROOT } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { extract } from '../pipeline/extract.js';
import { FEATURE_SETS } from '../features/registry.js';
import { JOB_COLUMNS } from './schema.js';
import { reportSchemaErrors } from '../testing/schema.js';

test('on every shared log the job row is a projection of the report: identity columns equal the report job fields', () => {
  const logs = corpusLogs();
  assert.equal(logs.length, 180);
  const columns = JOB_COLUMNS.map((c) => c.name).filter((n) => n !== 'ingested_at');
  for (const l of logs) {
    const x = extract(l.path);
    const j = x.report.job;
    const r = x.row;
    assert.deepEqual(Object.keys(r).sort(), [...columns].sort(), l.name);
    assert.equal(r.job_id, j.jobId === '' ? null : BigInt(j.jobId), l.name);
    assert.equal(r.uid, BigInt(j.uid), l.name);
    assert.equal(r.exe, j.exe, l.name);
    assert.equal(r.command, j.command, l.name);
    assert.equal(r.nprocs, j.processes, l.name);
    assert.equal(r.start_epoch, j.startTime.epochSeconds, l.name);
    assert.equal(r.end_epoch, j.endTime.epochSeconds, l.name);
    assert.equal(r.start_time, j.startTime.epochSeconds, l.name);
    assert.equal(r.run_time, j.durationSeconds, l.name);
    assert.deepEqual(r.modules, j.modules, l.name);
    assert.deepEqual(r.insight_codes, x.report.insights.map((i) => i.code), l.name);
    assert.deepEqual(r.insight_levels, x.report.insights.map((i) => i.level), l.name);
    // Feature columns are the feature vectors, column for column.
    for (const set of FEATURE_SETS) set.columns.forEach((c, i) => assert.equal(r[`${set.columnPrefix}${c.name}`], x.features[set.id][i], `${l.name} ${c.name}`));
    // The report inside extract is the report of diagnoseLog (one code path).
    assert.deepEqual(x.report, diagnoseLog(l.path), l.name);
    assert.deepEqual(reportSchemaErrors(x.report), [], l.name);
  }
});

test('a library call gives the JSON of iolens report --json, byte for byte', () => {
  const gen = join(REPO_ROOT, '..', 'shared', 'darshan-logs', 'generated');
  for (const name of ['ior-hdf5-indep-small-write-4k.darshan', 'iopat-rank0-shared-write.darshan']) {
    for (const mode of ['default', 'drishti'] as const) {
      const path = join(gen, name);
      const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'report', '--json', ...(mode === 'drishti' ? ['--drishti'] : []), path], { encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal(cli.stdout, `${JSON.stringify(diagnoseLog(path, { mode, logName: basename(path) }), null, 2)}\n`, `${name} ${mode}`);
    }
  }
});

test('diagnoseTrace gives the JSON of iolens trace --json, byte for byte', async () => {
  const { diagnoseTrace } = await import('../pipeline/diagnose-trace.js');
  const log = join(REPO_ROOT, '..', 'shared', 'darshan-logs', 'generated', 'iopat-straggler-fsync-write.darshan');
  const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', '--json', log], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, `${JSON.stringify(await diagnoseTrace([log]), null, 2)}\n`);
});
