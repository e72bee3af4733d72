import { test } from 'node:test';
import check from './p05-small-reads.js';
import { runCheckCases } from '../testing/check-tester.js';
import { posixOneFile, posixTotals } from '../testing/facts.js';

const facts = (reads: number, smallReads: number) => ({ 'posix.totals': posixTotals({ reads, smallReads }), 'posix.byFile': posixOneFile({ reads, smallReads }) });

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P05 small-reads', () => {
  runCheckCases(check, {
    fires: [
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { data: { count: 67675, ratio: 0.9972591031667674 }, details: 1, detail: { count: 52991, ratio: 0.7808756133861865 }, recommendations: ['coalesce', 'collective'] } },
      { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan', mode: 'drishti', expect: { data: { count: 4000, ratio: 1 }, details: 0, recommendations: ['coalesce', 'adoptMpiio'] } },
      { log: 'imbalanced-io.darshan', mode: 'default', expect: { data: { count: 67675, ratio: 0.9972591031667674 }, details: 1, detail: { count: 52991, ratio: 0.7808756133861865 }, recommendations: ['coalesce', 'collective'] } },
      // 300 of 2 000 reads are small: 15 % > 10 %, and 300 is not > 1 000 — so the absolute floor is lowered here.
      { facts: facts(2000, 300), knobs: { small_requests_absolute: 100 }, expect: { data: { count: 300, ratio: 0.15 }, details: 1, detail: { count: 300, ratio: 0.15 }, recommendations: ['coalesce', 'adoptMpiio'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
      // Exactly at the ratio threshold is not a fire (strict >).
      { facts: facts(2000, 200), knobs: { small_requests_absolute: 100 }, fired: ['P02 INFO', 'P11 INFO'] },
      // The absolute floor: 1 000 small reads are not > 1 000.
      { facts: facts(1000, 1000), fired: ['P02 INFO', 'P12 OK'] },
      { log: 'ior-small-seq-read-1k.darshan', knobs: { small_requests_absolute: 10000000 }, fired: ['M01 INFO', 'P02 INFO', 'P04 INFO', 'P12 OK', 'D11 WARN', 'D18 INFO'] },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
