import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../formats/darshan/index.js';
import { buildReport } from '../report/build-report.js';
import { PROBLEMS } from '../contract/index.js';
import { corpusLogs } from '../testing/corpus.js';
import { EvalCorpus } from './engine.js';
import { firstRanked, scoredFindings } from './score.js';
import { rankShare } from '../checks/level-policy.js';

const generated = corpusLogs().filter((l) => l.set === 'generated');

test('default mode: every insight names its problem; the most seconds first (what fixing saves), the good patterns last', () => {
  assert.ok(generated.length >= 30);
  for (const l of generated) {
    const r = buildReport(DarshanLog.open(l.path), { mode: 'default', logName: l.name });
    for (const i of r.insights) assert.ok(i.problem && (PROBLEMS as readonly string[]).includes(i.problem), `${l.name}: ${i.code} has a problem tag`);
    for (let k = 1; k < r.insights.length; k++) {
      const a = r.insights[k - 1], b = r.insights[k];
      assert.ok(a.level !== 'OK' || b.level === 'OK', `${l.name}: ${a.code} (OK) before ${b.code} (${b.level})`);
      if (a.level !== 'OK' && b.level !== 'OK') assert.ok(rankShare(a) >= rankShare(b), `${l.name}: ${a.code} saves (or spends) at least the share ${b.code} does`);
    }
    for (const i of r.insights) if (i.level === 'HIGH' || i.level === 'WARN') assert.ok(i.cost && i.cost.seconds > 0 && i.cost.ioShare >= 0 && i.cost.ioShare <= 1 && i.savings, `${l.name}: ${i.code} carries its cost and savings`);
  }
});

test('the evaluation ranks first the finding the report shows first', () => {
  const corpus = new EvalCorpus(generated.map((l) => ({ file: l.name, path: l.path, group: 'shared', labels: [], also: [], healthy: false })));
  generated.forEach((l, i) => {
    const r = buildReport(DarshanLog.open(l.path), { mode: 'default', logName: l.name });
    const shown = r.insights.find((x) => (x.level === 'HIGH' || x.level === 'WARN') && x.problem)?.code ?? null;
    assert.equal(firstRanked(scoredFindings(r.insights))?.code ?? null, shown, l.name);
    assert.equal(firstRanked(corpus.baseFindings(i))?.code ?? null, shown, `${l.name} (evaluation engine)`);
  });
});

test('--drishti keeps check order within panels and runs no diagnosis check', () => {
  const l = generated.find((x) => x.name === 'ior-stride-write-1k-fsync.darshan')!;
  const r = buildReport(DarshanLog.open(l.path), { mode: 'drishti', logName: l.name });
  assert.ok(r.insights.every((i) => !i.code.startsWith('D')));
  assert.ok(r.checks.every((c) => !c.code.startsWith('D')));
  assert.ok(r.insights.every((i) => i.cost === undefined));
});
