import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../formats/darshan/index.js';
import { FactContext } from '../facts/fact-context.js';
import { FactSource } from '../facts/source.js';
import { defaultConfig } from '../config/defaults.js';
import { corpusLogs } from '../testing/corpus.js';
import { CHECKS } from './registry.js';
import { runChecks } from './run-checks.js';

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
