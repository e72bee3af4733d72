import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PROBLEMS } from '../contract/index.js';
import { isHealthy, readLabManifest } from '../lab/manifest.js';
import { REPO_ROOT } from '../testing/corpus.js';
import { FEATURE_RULES, featureRule, isTimeFeature, problemsOfFeature } from '../features/problems.js';
import { blameColumns, evaluateBlame, formatBlame } from './blame.js';

// The learned diagnosis on the lab (src/eval/blame.ts): a throughput model trained on the lab's runs should blame the
// injected cause: the costliest feature that names a problem maps to one of the run's labels.

const LAB = join(REPO_ROOT, 'lab');

test('feature → problem map: every input column matched by exactly one rule, tags from the vocabulary', () => {
  const vocabulary = new Set<string>(PROBLEMS);
  for (const r of FEATURE_RULES) for (const p of r.problems) assert.ok(vocabulary.has(p), `${r.pattern}: ${p}`);
  const used = new Set<number>();
  for (const { name } of blameColumns()) {
    const matching = FEATURE_RULES.map((r, i) => (r.pattern.test(name) ? i : -1)).filter((i) => i >= 0);
    assert.equal(matching.length, 1, `${name}: ${matching.length} rules`);
    used.add(matching[0]);
  }
  assert.equal(used.size, FEATURE_RULES.length, 'every rule matches some column');
  assert.deepEqual(problemsOfFeature('aiio_posix_fsyncs'), ['excessive-fsync']);
  assert.deepEqual(problemsOfFeature('gauge_size_write_1k_10k_perc'), ['small-writes']);
  assert.deepEqual(problemsOfFeature('gauge_size_write_1m_4m_perc'), []);
  assert.deepEqual(problemsOfFeature('aiio_nprocs'), []);
  assert.equal(featureRule('no_such_column'), undefined);
  assert.ok(isTimeFeature('io_time') && isTimeFeature('gauge_log10_run_time') && isTimeFeature('posix_bytes_read', 'seconds') && !isTimeFeature('posix_bytes_read'));
});

// Measured on the local-disk lab (GBDT, seed 1, zero baseline, leave one family out): the share of problem runs whose
// first-ranked cause (`rankedCauses`, as the report's learned section ranks them) is one of their labels, over every
// problem run and over those slower than their healthy twin for the same work. docs/eval.md, "Blame on the lab".
const MEASURED = { all: 0.395, slower: 0.412 };
/** The floors, below the measured shares with margin (seeded training: they move only when the engine or lab do). */
const FLOOR = { all: 0.32, slower: 0.33 };

test('blame on the lab: a GBDT blames the injected cause of a share of the problem runs of held-out families', async () => {
  const e = await evaluateBlame(LAB);
  const runs = readLabManifest(join(LAB, 'MANIFEST.json')).runs;
  assert.equal(e.problemRuns, runs.filter((r) => !isHealthy(r)).length);
  assert.equal(e.runs, e.perRun.filter((r) => r.slower).length);
  assert.equal(e.blamed, e.perRun.filter((r) => r.slower && r.blamed).length);
  for (const r of e.perRun) assert.equal(r.blamed, r.topProblems.some((p) => r.labels.includes(p)), r.file);
  console.log(formatBlame(e));
  const share = { all: e.problemRunsBlamed / e.problemRuns, slower: e.blamed / e.runs };
  assert.ok(share.all >= FLOOR.all, `every problem run: ${share.all} (measured ${MEASURED.all})`);
  assert.ok(share.slower >= FLOOR.slower, `slower runs: ${share.slower} (measured ${MEASURED.slower})`);
});
