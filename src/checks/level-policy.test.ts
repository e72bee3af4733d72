import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultKnobValues } from '../config/knobs.js';
import { corpusLogs } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { impactOf, ruleLevel } from './level-policy.js';

const K = defaultKnobValues();

test('the level rule: HIGH needs a dominant cost that matters to the run, WARN a measurable one, else INFO', () => {
  const t = (share: number) => ({ share, basis: 'time' as const });
  // [proposed, cost share, I/O share of the run] → level
  const cases: [Parameters<typeof ruleLevel>[0], number | null, number | null, string][] = [
    ['HIGH', 1, 0.5, 'HIGH'],
    ['HIGH', 0.25, 0.2, 'HIGH'], // 25 % of I/O × 20 % of the run = 5 % of the run
    ['HIGH', 0.25, 0.19, 'WARN'], // just below 5 % of the run
    ['HIGH', 0.24, 1, 'WARN'], // not dominant
    ['HIGH', 1, 0.008, 'WARN'], // the whole I/O, but the I/O is 0.8 % of the run
    ['HIGH', 1, null, 'HIGH'], // run time unknown: the I/O share alone
    ['HIGH', 0.0066, 0.5, 'INFO'], // D07 on partial_data_stdio: metadata is 0.66 % of the I/O time
    ['WARN', 0.02, 0.5, 'WARN'],
    ['WARN', 0.019, 0.5, 'INFO'],
    ['WARN', 1, 1, 'WARN'], // never raised above what the check proposes
    ['HIGH', null, 1, 'WARN'], // no measured cost: at most WARN
    ['OK', 0, 1, 'OK'],
    ['INFO', 1, 1, 'INFO'],
  ];
  for (const [proposed, share, io, want] of cases) assert.equal(ruleLevel(proposed, share === null ? undefined : t(share), io, K), want, `${proposed} ${share} ${io}`);
  assert.equal(impactOf(t(0.5), 0.5), 0.25);
});

test('on every shared log: no default-mode HIGH below the rule, and every HIGH/WARN with a cost says what it costs', () => {
  for (const l of corpusLogs()) {
    const r = diagnoseLog(l.path, { snippets: false });
    for (const f of r.insights) {
      if (f.level !== 'HIGH' && f.level !== 'WARN') continue;
      if (f.level === 'HIGH') {
        assert.ok(f.cost, `${l.name} ${f.code}: a HIGH has a cost`);
        assert.ok(f.cost.share >= K.high_cost_share, `${l.name} ${f.code}`);
        if (r.io.ioShare !== null) assert.ok(f.cost.share * r.io.ioShare >= K.high_run_share, `${l.name} ${f.code}: HIGH costs ≥ 5 % of the run`);
        assert.ok(!f.caveats, `${l.name} ${f.code}: no HIGH on incomplete data`);
      }
      if (f.cost && f.thresholds.length) assert.ok(f.thresholds.some((t) => t.knob === 'high_cost_share'), `${l.name} ${f.code}: the rule's knobs are listed`);
    }
  }
});

test('on every shared log: no recommendation the same report shows is already followed', () => {
  let checked = 0;
  for (const l of corpusLogs()) {
    const r = diagnoseLog(l.path, { snippets: false });
    // What the job already does, from the MPI-IO observations of the same report.
    const allCollective = (code: string) => r.insights.some((i) => i.code === code && i.level === 'OK' && /\(100\.00%\) collective/.test(i.message));
    const followed: [RegExp, boolean][] = [
      [/collective writes|MPI_File_write_all|write_at_all/i, allCollective('M05')],
      [/collective reads|MPI_File_read_all|read_at_all/i, allCollective('M04')],
    ];
    for (const f of r.insights) {
      if (f.level !== 'HIGH' && f.level !== 'WARN') continue;
      for (const rec of f.recommendations) {
        for (const [advice, done] of followed) {
          if (done && advice.test(rec.text) && !/already collective/i.test(rec.text)) assert.fail(`${l.name} ${f.code} recommends "${rec.text}" but the report shows it is done`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `recommendations checked: ${checked}`);
});
