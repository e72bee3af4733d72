import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../formats/darshan/index.js';
import { FactContext } from '../facts/fact-context.js';
import { FactSource } from '../facts/source.js';
import { defaultConfig } from '../config/defaults.js';
import { corpusLogs } from '../testing/corpus.js';
import { CHECKS } from './registry.js';
import { runChecks } from './run-checks.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';

test('a fact that throws makes the checks that need it error outcomes, and the rest still run', () => {
  const path = corpusLogs().find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!.path;
  const source = new FactSource(DarshanLog.open(path));
  // Simulate a fact failing: every MPI-IO table read throws.
  const fixed = source.fixed.bind(source);
  source.fixed = (name: string) => {
    if (name === 'MPI-IO') throw new Error('simulated failure');
    return fixed(name);
  };
  const res = runChecks(CHECKS, FactContext.forLog(source), { mode: 'default', config: defaultConfig(), env: { nodes: null, applicationHints: null } });
  const errors = res.outcomes.filter((o) => o.status === 'error');
  assert.ok(errors.length > 0, 'some checks need MPI-IO facts');
  for (const e of errors) assert.match(e.reason ?? '', /simulated failure/);
  assert.ok(res.outcomes.some((o) => o.status === 'fired'), 'the other checks still fire');
  assert.equal(res.outcomes.length, CHECKS.filter((c) => !c.meta.modes || c.meta.modes.includes('default')).length);
});

test('detailLimit: each finding keeps its first N details and counts the rest; the report is otherwise the full one', () => {
  // 300 files: D12 names 158 of them, D01 41 (both stop building details at the limit), D10/D11 ~45 (cut by the runner).
  const log = DarshanLog.fromBytes(writeLog(synthesizeLog({ posixFiles: 300, nprocs: 8 })), 's300.darshan');
  const run = (detailLimit?: number) =>
    runChecks(CHECKS, FactContext.forLog(new FactSource(log)), { mode: 'default', config: defaultConfig(), env: { nodes: null, applicationHints: null }, ...(detailLimit !== undefined ? { detailLimit } : {}) });
  const full = run();
  const many = full.insights.filter((f) => f.details.length > 10).map((f) => f.code);
  for (const code of ['D01', 'D10', 'D11', 'D12']) assert.ok(many.includes(code), `${code} has more than 10 details (${many})`);
  assert.ok(full.insights.every((f) => f.detailsOmitted === undefined), 'a report without a limit omits nothing');
  for (const n of [1, 10, 41, 1000]) {
    const cut = run(n);
    assert.deepEqual(cut.outcomes, full.outcomes);
    assert.deepEqual(cut.messages, full.messages, 'every detail message id is still in the message table');
    assert.equal(cut.insights.length, full.insights.length);
    for (const [i, f] of full.insights.entries()) {
      const { details, detailsOmitted, ...rest } = cut.insights[i];
      const { details: allDetails, ...fullRest } = f;
      assert.deepEqual(rest, fullRest, `${f.code}: message, data and evidence do not depend on the limit`);
      assert.deepEqual(details, allDetails.slice(0, n), `${f.code}: the first ${n}`);
      assert.equal(detailsOmitted, allDetails.length > n ? allDetails.length - n : undefined, `${f.code}: omitted count`);
    }
  }
  for (const bad of [0, -1, 2.5, Number.NaN]) assert.throws(() => run(bad), RangeError);
});
