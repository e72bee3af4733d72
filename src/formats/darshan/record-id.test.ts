import { test } from 'node:test';
import assert from 'node:assert/strict';
import { darshanRecordId } from './record-id.js';
import { DarshanLog } from './log.js';
import { corpusLogs } from '../../testing/corpus.js';

test('darshanRecordId reproduces the documented check values', () => {
  assert.equal(darshanRecordId('/scratch/run/testFile'), 4502029977761204781n);
  assert.equal(darshanRecordId('<STDOUT>'), 15920181672442173319n);
  assert.equal(darshanRecordId('heatmap:POSIX'), 16592106915301738621n);
});

test('darshanRecordId matches the ids stored in every generated log', () => {
  let checked = 0;
  for (const l of corpusLogs().filter((x) => x.set === 'generated')) {
    for (const [id, name] of DarshanLog.open(l.path).names.entries()) {
      assert.equal(darshanRecordId(name), id, `${l.name}: ${name}`);
      checked++;
    }
  }
  assert.ok(checked > 100, `checked ${checked} names`);
});
