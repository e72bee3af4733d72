import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addToTally, checkRows, emptyTally, firstRanked, judge, labelRows, scoredFindings, type ScoredFinding } from './score.js';

const f = (code: string, problem: string, level: 'HIGH' | 'WARN'): ScoredFinding => ({ code, problem, level });

test('judge: a label is found by HIGH or WARN; side effects are accepted; false alarms are HIGH only', () => {
  const run = { labels: ['small-writes', 'excessive-fsync'], also: ['misaligned-file'], healthy: false };
  const j = judge(run, [f('D10', 'small-writes', 'WARN'), f('D12', 'misaligned-file', 'HIGH'), f('D16', 'random-write', 'HIGH'), f('M01', 'no-mpiio', 'WARN'), f('P10', 'small-writes', 'HIGH')]);
  assert.deepEqual(j.hits, ['small-writes']);
  assert.deepEqual(j.misses, ['excessive-fsync']);
  assert.deepEqual(j.accepted, ['misaligned-file']);
  assert.deepEqual(j.falseAlarms, [{ problem: 'random-write', code: 'D16' }]);
  assert.deepEqual(j.unlabelledWarn, [{ problem: 'no-mpiio', code: 'M01' }]);
  assert.deepEqual(j.found.find((x) => x.problem === 'small-writes'), { problem: 'small-writes', level: 'HIGH', codes: ['D10', 'P10'] });
});

test('judge: on a healthy run every HIGH is a false alarm and nothing is a hit, whatever the labels say', () => {
  const j = judge({ labels: ['healthy'], also: [], healthy: true }, [f('D10', 'small-writes', 'HIGH'), f('D13', 'time-imbalance', 'WARN')]);
  assert.deepEqual([j.hits, j.misses, j.falseAlarms.length, j.unlabelledWarn.length], [[], [], 1, 1]);
  const t = addToTally(emptyTally(), { labels: ['healthy'], also: [], healthy: true }, j);
  assert.deepEqual(t, { runs: 1, healthy: 1, labels: 0, hits: 0, misses: 0, falseAlarms: 1, highOnHealthy: 1, unlabelledWarn: 1, problemRuns: 0, firstIsCause: 0 });
});

test('scoredFindings keeps HIGH and WARN insights with a problem tag', () => {
  assert.deepEqual(
    scoredFindings([
      { code: 'D10', level: 'HIGH', problem: 'small-writes' },
      { code: 'P12', level: 'OK', problem: 'random-read' },
      { code: 'D18', level: 'INFO', problem: 'io-phases' },
      { code: 'X', level: 'WARN' },
    ]),
    [f('D10', 'small-writes', 'HIGH')],
  );
});

test('per-label and per-check rows: precision = hits / (hits + false HIGH), recall over runs labelled with the tag', () => {
  const a = { labels: ['small-writes'], also: [], healthy: false };
  const b = { labels: ['small-writes'], also: [], healthy: false };
  const h = { labels: ['healthy'], also: [], healthy: true };
  const c = { labels: ['stdio-heavy'], also: ['small-writes'], healthy: false };
  const runs = [
    { run: a, findings: [f('D10', 'small-writes', 'WARN'), f('D10', 'small-writes', 'HIGH')] },
    { run: b, findings: [] },
    { run: h, findings: [f('D10', 'small-writes', 'HIGH')] },
    { run: c, findings: [f('D10', 'small-writes', 'HIGH'), f('D09', 'stdio-heavy', 'WARN')] },
  ];
  const rows = checkRows(runs);
  assert.deepEqual(rows.find((r) => r.code === 'D10'), { code: 'D10', problem: 'small-writes', raised: 3, hits: 1, accepted: 1, falseAlarms: 1, unlabelledWarn: 0, labelled: 2, precision: 0.5, recall: 0.5 });
  assert.deepEqual(rows.find((r) => r.code === 'D09'), { code: 'D09', problem: 'stdio-heavy', raised: 1, hits: 1, accepted: 0, falseAlarms: 0, unlabelledWarn: 0, labelled: 1, precision: 1, recall: 1 });
  const labels = labelRows(['small-writes', 'stdio-heavy', 'healthy'], runs.map((r) => ({ run: r.run, j: judge(r.run, r.findings) })));
  assert.deepEqual(labels, [
    { label: 'small-writes', logs: 2, hits: 1, misses: 1, falseAlarms: 1 },
    { label: 'stdio-heavy', logs: 1, hits: 1, misses: 0, falseAlarms: 0 },
  ]);
});

test('the first-ranked finding: the larger share of the I/O time fixing it saves (else costs), then HIGH before WARN, then seconds, then check order', () => {
  const c = (code: string, problem: string, level: 'HIGH' | 'WARN', ioShare: number, seconds: number): ScoredFinding => ({ code, problem, level, cost: { ioShare, seconds } });
  const sync = c('D01', 'excessive-fsync', 'WARN', 0.9, 9);
  const small = c('D10', 'small-writes', 'WARN', 0.05, 0.5);
  const run = { labels: ['excessive-fsync'], also: [], healthy: false };
  // The costliest WARN comes first, whatever order the checks ran in.
  assert.equal(firstRanked([small, sync]), sync);
  assert.deepEqual(judge(run, [small, sync]).first, { code: 'D01', problem: 'excessive-fsync', cause: true });
  // What fixing saves decides before the level: a WARN that saves more outranks a HIGH; at equal savings the HIGH wins.
  const high = c('D16', 'random-write', 'HIGH', 0.3, 3);
  assert.deepEqual(judge(run, [sync, high]).first, { code: 'D01', problem: 'excessive-fsync', cause: true });
  const saves = (x: ScoredFinding, seconds: number): ScoredFinding => ({ ...x, savings: { seconds } });
  // The sync's calls took 90 % of the I/O time but fixing them saves 1 of its 9 s (10 %); the random writes save 30 %.
  assert.deepEqual(judge(run, [saves(sync, 1), saves(high, 3)]).first, { code: 'D16', problem: 'random-write', cause: false });
  assert.equal(firstRanked([c('D02', 'strided-access', 'WARN', 0.3, 3), high]), high);
  // A finding without a cost ranks after those with one; ties keep the order given.
  assert.equal(firstRanked([f('M01', 'no-mpiio', 'WARN'), small]), small);
  const twin = c('D02', 'strided-access', 'WARN', 0.9, 9);
  assert.equal(firstRanked([sync, twin]), sync);
  assert.equal(judge(run, []).first, null);
  // Tallied over problem runs only.
  let t = addToTally(emptyTally(), run, judge(run, [small, sync]));
  t = addToTally(t, run, judge(run, [saves(high, 3), saves(sync, 1)]));
  t = addToTally(t, { labels: ['healthy'], also: [], healthy: true }, judge({ labels: ['healthy'], also: [], healthy: true }, [sync]));
  assert.deepEqual([t.problemRuns, t.firstIsCause], [2, 1]);
});
