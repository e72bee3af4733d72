import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../log.js';
import { printJsonDump } from './json-dump.js';
import { StringOut } from './text-out.js';
import { corpusLogs } from '../../../testing/corpus.js';
import type { FixedTable } from '../modules/fixed-codec.js';

test('parse --json is valid JSON with every record of every log', () => {
  for (const l of corpusLogs()) {
    const log = DarshanLog.open(l.path);
    const out = new StringOut();
    printJsonDump(log, out, { dxt: true });
    const doc = JSON.parse(out.toString());
    assert.equal(doc.schemaVersion, 1);
    assert.equal(doc.job.jobid, log.job.jobid.toString(), l.name);
    for (const s of log.slots()) {
      const res = log.decode(s.id);
      if (!res || s.name === 'NULL') continue;
      assert.equal(doc.modules[s.name!]?.records.length, res.table.length, `${l.name} ${s.name}`);
    }
  }
});

test('parse --json carries exact values', () => {
  const l = corpusLogs().find((x) => x.name === 'ior-hdf5-indep-small-write-4k.darshan')!;
  const log = DarshanLog.open(l.path);
  const out = new StringOut();
  printJsonDump(log, out);
  const doc = JSON.parse(out.toString());
  const posix = doc.modules.POSIX.records[0];
  assert.equal(posix.file, '/scratch/run/testFile.h5');
  assert.equal(posix.rank, -1);
  assert.equal(posix.counters.POSIX_WRITES, 1031);
  assert.equal(posix.counters.POSIX_BYTES_WRITTEN, log.table<FixedTable>('POSIX')!.int('POSIX_BYTES_WRITTEN')[0]);
  assert.equal(doc.modules.H5D.records[0].H5D_FILE_REC_ID, log.table<FixedTable>('H5D')!.fileRecIds![0].toString());
  assert.equal(doc.modules.DXT_POSIX, undefined, 'DXT only with --dxt');
  assert.equal(doc.perf.find((p: { module: string }) => p.module === 'MPI-IO').totalBytes, 4195800); // darshan-parser --perf: total_bytes 4195800
});
