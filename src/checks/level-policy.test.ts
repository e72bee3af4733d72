import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultKnobValues } from '../config/knobs.js';
import { corpusLogs } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { completeCost, ruleLevel } from './level-policy.js';

const K = defaultKnobValues();

test('the level rule: HIGH needs measured seconds that dominate the I/O and matter to the run, WARN any measured cost', () => {
  // A job of 4 ranks, 10 s run: 2 s of I/O on the slowest rank, 6 s summed over ranks (40 rank-seconds in all).
  const y = { ioTime: 2, cumulativeIoTime: 6, runTime: 10, processes: 4 };
  // [proposed, seconds, semantics, basis] → level
  const cases: [Parameters<typeof ruleLevel>[0], number | null, 'slowest' | 'cumulative', 'time' | 'bound', string][] = [
    ['HIGH', 6, 'cumulative', 'time', 'HIGH'],
    ['HIGH', 2, 'cumulative', 'time', 'HIGH'], // 33 % of the summed I/O time, 5 % of the 40 rank-seconds
    ['HIGH', 1.99, 'cumulative', 'time', 'WARN'], // just below 5 % of the run (× 4 ranks)
    ['HIGH', 1.4, 'cumulative', 'time', 'WARN'], // 23 % of the I/O: not dominant
    ['HIGH', 0.5, 'slowest', 'time', 'HIGH'], // 25 % of the slowest rank's 2 s, 5 % of the 10 s run
    ['HIGH', 0.49, 'slowest', 'time', 'WARN'],
    ['HIGH', 6, 'cumulative', 'bound', 'WARN'], // an upper bound is never HIGH
    ['HIGH', 1e-6, 'cumulative', 'time', 'WARN'], // any measured time is WARN at the default floor (0)
    ['HIGH', 0, 'cumulative', 'time', 'INFO'], // no time measured
    ['HIGH', null, 'cumulative', 'time', 'INFO'], // no cost at all
    ['WARN', 6, 'cumulative', 'time', 'WARN'], // never raised above what the check proposes
    ['OK', 6, 'cumulative', 'time', 'OK'],
    ['INFO', 6, 'cumulative', 'time', 'INFO'],
  ];
  for (const [proposed, seconds, semantics, basis, want] of cases) {
    const cost = seconds === null ? undefined : completeCost({ seconds, semantics, basis }, y);
    assert.equal(ruleLevel(proposed, cost, K), want, `${proposed} ${seconds} ${semantics} ${basis}`);
  }
  // The run time unknown: the I/O share alone decides.
  assert.equal(ruleLevel('HIGH', completeCost({ seconds: 2 }, { ...y, runTime: 0 }), K), 'HIGH');
  assert.equal(completeCost({ seconds: 2 }, { ...y, runTime: 0 }).runShare, null);
  // A raised WARN floor makes cheap problems INFO.
  assert.equal(ruleLevel('WARN', completeCost({ seconds: 0.1 }, y), { ...K, warn_cost_share: 0.02 }), 'INFO');
  assert.equal(ruleLevel('WARN', completeCost({ seconds: 0.12 }, y), { ...K, warn_cost_share: 0.02 }), 'WARN');
  // Shares are of the same semantics and bounded.
  const c = completeCost({ seconds: 1, semantics: 'slowest' }, y);
  assert.deepEqual(c, { seconds: 1, semantics: 'slowest', ioShare: 0.5, runShare: 0.1, basis: 'time' });
  assert.equal(completeCost({ seconds: 60 }, y).ioShare, 1);
  assert.equal(completeCost({ seconds: Number.NaN }, y).seconds, 0);
});

test('on every shared log: every HIGH costs at least 25 % of the I/O time and 5 % of the run in its semantics, every WARN/HIGH states seconds', () => {
  for (const l of corpusLogs()) {
    const r = diagnoseLog(l.path, { snippets: false });
    for (const f of r.insights) {
      if (f.level !== 'HIGH' && f.level !== 'WARN') continue;
      assert.ok(f.cost && f.cost.seconds > 0, `${l.name} ${f.code}: a ${f.level} states the seconds it costs`);
      if (f.level === 'HIGH') {
        const io = f.cost.semantics === 'slowest' ? r.io.ioTime : r.io.cumulativeIoTime;
        const run = f.cost.semantics === 'slowest' ? r.io.runTime : r.io.runTime * r.io.processes;
        assert.equal(f.cost.basis, 'time', `${l.name} ${f.code}: a HIGH is measured, not a bound`);
        assert.ok(f.cost.seconds >= K.high_cost_share * io * (1 - 1e-12), `${l.name} ${f.code}: HIGH costs ≥ 25 % of the I/O time`);
        if (run > 0) assert.ok(f.cost.seconds >= K.high_run_share * run * (1 - 1e-12), `${l.name} ${f.code}: HIGH costs ≥ 5 % of the run`);
        assert.ok(!f.caveats, `${l.name} ${f.code}: no HIGH on incomplete data`);
      }
      if (f.thresholds.length) assert.ok(f.thresholds.some((t) => t.knob === 'high_cost_share'), `${l.name} ${f.code}: the rule's knobs are listed`);
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
