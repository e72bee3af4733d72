import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultKnobValues } from '../config/knobs.js';
import { corpusLogs } from '../testing/corpus.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import type { Finding, Savings } from '../contract/index.js';
import { completeCost, rankFindings, ruleLevel, savingsShares } from './level-policy.js';

const K = defaultKnobValues();

test('the level rule: HIGH needs savings, not a bound, that dominate the I/O and matter to the run; WARN any savings', () => {
  // A job of 4 ranks, 10 s run: 2 s of I/O on the slowest rank, 6 s summed over ranks (40 rank-seconds in all).
  const y = { ioTime: 2, cumulativeIoTime: 6, runTime: 10, processes: 4 };
  const sv = (seconds: number, semantics: 'slowest' | 'cumulative', basis: Savings['basis'], high = seconds): Savings => ({ seconds, low: seconds / 2, high, semantics, basis, reference: 'test' });
  // [proposed, cost seconds, savings seconds, semantics, cost basis, savings basis] → level
  type Case = [Parameters<typeof ruleLevel>[0], number | null, number | null, 'slowest' | 'cumulative', 'time' | 'bound', Savings['basis'], string];
  const cases: Case[] = [
    ['HIGH', 6, 6, 'cumulative', 'time', 'job', 'HIGH'],
    ['HIGH', 6, 2.01, 'cumulative', 'time', 'job', 'HIGH'], // saves 33 % of the summed I/O time, just over 5 % of the 40 rank-seconds
    ['HIGH', 6, 1.99, 'cumulative', 'time', 'reference', 'WARN'], // just below 5 % of the run (× 4 ranks)
    ['HIGH', 6, 1.4, 'cumulative', 'time', 'job', 'WARN'], // spends all the I/O time, saves 23 % of it: not dominant
    ['HIGH', 2, 0.5, 'slowest', 'time', 'job', 'HIGH'], // 25 % of the slowest rank's 2 s, 5 % of the 10 s run
    ['HIGH', 2, 0.49, 'slowest', 'time', 'job', 'WARN'],
    ['HIGH', 6, 6, 'cumulative', 'bound', 'job', 'WARN'], // a cost that is an upper bound is never HIGH
    ['HIGH', 6, 6, 'cumulative', 'time', 'bound', 'WARN'], // nor are savings that are a bound
    ['HIGH', 6, 1e-6, 'cumulative', 'time', 'job', 'WARN'], // any savings are WARN at the default floor (0)
    ['HIGH', 6, 0, 'cumulative', 'time', 'job', 'INFO'], // spends all the I/O time, saves nothing: not raised
    ['HIGH', 6, null, 'cumulative', 'time', 'job', 'INFO'], // no savings stated
    ['HIGH', null, null, 'cumulative', 'time', 'job', 'INFO'], // no cost at all
    ['WARN', 6, 6, 'cumulative', 'time', 'job', 'WARN'], // never raised above what the check proposes
    ['OK', 6, 6, 'cumulative', 'time', 'job', 'OK'],
    ['INFO', 6, 6, 'cumulative', 'time', 'job', 'INFO'],
  ];
  for (const [proposed, seconds, saved, semantics, basis, sBasis, want] of cases) {
    const cost = seconds === null ? undefined : completeCost({ seconds, semantics, basis }, y);
    const savings = saved === null ? undefined : sv(saved, semantics, sBasis);
    assert.equal(ruleLevel(proposed, cost, savings, K), want, `${proposed} ${seconds} ${saved} ${semantics} ${basis} ${sBasis}`);
  }
  // The run time unknown: the I/O share alone decides.
  assert.equal(ruleLevel('HIGH', completeCost({ seconds: 2 }, { ...y, runTime: 0 }), sv(2, 'cumulative', 'job'), K), 'HIGH');
  assert.equal(completeCost({ seconds: 2 }, { ...y, runTime: 0 }).runShare, null);
  // Savings estimated at 0 whose range reaches above it (a reference the calls already matched): WARN, not HIGH.
  assert.equal(ruleLevel('HIGH', completeCost({ seconds: 6 }, y), sv(0, 'cumulative', 'reference', 6), K), 'WARN');
  // A raised WARN floor makes problems that save little INFO, whatever they spend.
  assert.equal(ruleLevel('WARN', completeCost({ seconds: 6 }, y), sv(0.1, 'cumulative', 'job'), { ...K, warn_cost_share: 0.02 }), 'INFO');
  assert.equal(ruleLevel('WARN', completeCost({ seconds: 6 }, y), sv(0.05, 'cumulative', 'job', 0.1), { ...K, warn_cost_share: 0.02 }), 'INFO');
  assert.equal(ruleLevel('WARN', completeCost({ seconds: 6 }, y), sv(0.12, 'cumulative', 'job'), { ...K, warn_cost_share: 0.02 }), 'WARN');
  // Shares are of the same semantics and bounded.
  const c = completeCost({ seconds: 1, semantics: 'slowest' }, y);
  assert.deepEqual(c, { seconds: 1, semantics: 'slowest', ioShare: 0.5, runShare: 0.1, basis: 'time' });
  assert.deepEqual(savingsShares(sv(0.5, 'slowest', 'job'), c), { ioShare: 0.25, runShare: 0.05 });
  assert.equal(completeCost({ seconds: 60 }, y).ioShare, 1);
  assert.equal(completeCost({ seconds: Number.NaN }, y).seconds, 0);
});

test('the ranking: what fixing saves first, whatever the level; observations by what they spend; OK last', () => {
  const y = { ioTime: 2, cumulativeIoTime: 6, runTime: 10, processes: 4 };
  const f = (code: string, level: Finding['level'], spent: number | null, saved: number | null): Finding => ({
    code, level, panel: 'OPERATIONS', messageId: `${code}.x`, message: code, data: {}, evidence: [], thresholds: [], details: [], recommendations: [],
    ...(spent !== null ? { cost: completeCost({ seconds: spent }, y) } : {}),
    ...(saved !== null ? { savings: { seconds: saved, low: saved, high: saved, semantics: 'cumulative' as const, basis: 'job' as const, reference: 'test' } } : {}),
  });
  const list = [f('A', 'WARN', 3, 0.1), f('B', 'INFO', 0.8, null), f('C', 'OK', 6, null), f('D', 'HIGH', 4, 3), f('E', 'WARN', 0.5, 0.5), f('F', 'INFO', null, null)];
  // D saves 3 s; B is a note whose calls took 0.8 s (more than E or A would save); E saves 0.5 s, A 0.1 s of its 3 s.
  assert.deepEqual([...list].sort(rankFindings).map((x) => x.code), ['D', 'B', 'E', 'A', 'F', 'C']);
});

test('on every shared log: every HIGH saves at least 25 % of the I/O time and 5 % of the run in its semantics, every WARN/HIGH states cost and savings', () => {
  for (const l of corpusLogs()) {
    const r = diagnoseLog(l.path, { snippets: false });
    const total = { slowest: 0, cumulative: 0 };
    for (const f of r.insights) {
      if (f.savings) total[f.savings.semantics] += f.savings.seconds;
      if (f.level !== 'HIGH' && f.level !== 'WARN') continue;
      assert.ok(f.cost && f.cost.seconds > 0, `${l.name} ${f.code}: a ${f.level} states the seconds it costs`);
      assert.ok(f.savings && f.savings.high > 0 && f.savings.high <= f.cost.seconds * (1 + 1e-12), `${l.name} ${f.code}: a ${f.level} states what fixing it can save, at most its cost`);
      assert.ok(f.savings.low <= f.savings.seconds && f.savings.seconds <= f.savings.high, `${l.name} ${f.code}: savings within their range`);
      assert.equal(f.savings.semantics, f.cost.semantics);
      if (f.level === 'HIGH') {
        const io = f.cost.semantics === 'slowest' ? r.io.ioTime : r.io.cumulativeIoTime;
        const run = f.cost.semantics === 'slowest' ? r.io.runTime : r.io.runTime * r.io.processes;
        assert.equal(f.cost.basis, 'time', `${l.name} ${f.code}: a HIGH is measured, not a bound`);
        assert.notEqual(f.savings.basis, 'bound', `${l.name} ${f.code}: a HIGH's savings are not a bound`);
        assert.ok(f.savings.seconds >= K.high_cost_share * io * (1 - 1e-9), `${l.name} ${f.code}: HIGH saves ≥ 25 % of the I/O time`);
        if (run > 0) assert.ok(f.savings.seconds >= K.high_run_share * run * (1 - 1e-9), `${l.name} ${f.code}: HIGH saves ≥ 5 % of the run`);
        assert.ok(!f.caveats, `${l.name} ${f.code}: no HIGH on incomplete data`);
      }
      if (f.thresholds.length) assert.ok(f.thresholds.some((t) => t.knob === 'high_cost_share'), `${l.name} ${f.code}: the rule's knobs are listed`);
    }
    // The overlap rule: all findings together never save more than the I/O time.
    assert.ok(total.slowest <= r.io.ioTime * (1 + 1e-9) + 1e-12, `${l.name}: savings on the slowest rank ${total.slowest} ≤ ${r.io.ioTime}`);
    assert.ok(total.cumulative <= r.io.cumulativeIoTime * (1 + 1e-9) + 1e-12, `${l.name}: summed savings ${total.cumulative} ≤ ${r.io.cumulativeIoTime}`);
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
