import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../formats/darshan/index.js';
import { buildReport } from '../report/build-report.js';
import { LEVELS, PANELS, PROBLEMS } from '../contract/index.js';
import { corpusLogs } from '../testing/corpus.js';

const generated = corpusLogs().filter((l) => l.set === 'generated');

test('default mode: every insight names its problem; panels list issues before observations, costliest first', () => {
  assert.ok(generated.length >= 30);
  for (const l of generated) {
    const r = buildReport(DarshanLog.open(l.path), { mode: 'default', logName: l.name });
    for (const i of r.insights) assert.ok(i.problem && (PROBLEMS as readonly string[]).includes(i.problem), `${l.name}: ${i.code} has a problem tag`);
    for (let k = 1; k < r.insights.length; k++) {
      const a = r.insights[k - 1], b = r.insights[k];
      const pa = PANELS.indexOf(a.panel), pb = PANELS.indexOf(b.panel);
      assert.ok(pa <= pb, `${l.name}: panels in order`);
      if (pa !== pb) continue;
      const la = LEVELS.indexOf(a.level), lb = LEVELS.indexOf(b.level);
      assert.ok(la <= lb, `${l.name}: ${a.code} (${a.level}) before ${b.code} (${b.level})`);
      if (la === lb && a.cost && b.cost) assert.ok(a.cost.share >= b.cost.share, `${l.name}: ${a.code} costs at least ${b.code}`);
    }
    for (const i of r.insights) if (i.code.startsWith('D') && (i.level === 'HIGH' || i.level === 'WARN')) assert.ok(i.cost && i.cost.share >= 0 && i.cost.share <= 1, `${l.name}: ${i.code} carries its cost`);
  }
});

test('--drishti keeps check order within panels and runs no diagnosis check', () => {
  const l = generated.find((x) => x.name === 'ior-stride-write-1k-fsync.darshan')!;
  const r = buildReport(DarshanLog.open(l.path), { mode: 'drishti', logName: l.name });
  assert.ok(r.insights.every((i) => !i.code.startsWith('D')));
  assert.ok(r.checks.every((c) => !c.code.startsWith('D')));
  assert.ok(r.insights.every((i) => i.cost === undefined));
});
