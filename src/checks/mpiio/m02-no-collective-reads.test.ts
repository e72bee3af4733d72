import { test } from 'node:test';
import check from './m02-no-collective-reads.js';
import { runCheckCases } from '../testing/check-tester.js';
import { mpiioRecords, mpiioTotals } from '../testing/facts.js';

// No example log reads over 1 000 times through MPI-IO without collectives, so the firing cases are hand-made.
const twoRanks = { 'mpiio.totals': mpiioTotals({ indepReads: 2400 }), 'mpiio.records': mpiioRecords([[1200, 0], [1200, 0]]) };

test('M02 no-collective-reads', () => {
  runCheckCases(check, {
    fires: [
      // Drishti lists records (one per rank) with the percentage as a raw float.
      { facts: twoRanks, mode: 'drishti', expect: { data: { count: 2400, ratio: 1 }, details: 2, detail: { count: 1200, percent: 100 }, recommendations: ['collective'] } },
      // The default mode lists the file once, ranks summed.
      { facts: twoRanks, mode: 'default', expect: { data: { count: 2400, ratio: 1 }, details: 1, detail: { count: 2400, ratio: 1 }, recommendations: ['collective'] } },
    ],
    quiet: [
      { log: 'ior-mpiio-indep-large.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'P19 HIGH', 'M06 WARN', 'M07 WARN'] },
      // 1 000 operations are not > 1 000.
      { facts: { 'mpiio.totals': mpiioTotals({ indepReads: 1000 }), 'mpiio.records': mpiioRecords([[1000, 0]]) }, fired: [] },
      // One collective read is enough.
      { facts: { 'mpiio.totals': mpiioTotals({ indepReads: 5000, collReads: 1 }), 'mpiio.records': mpiioRecords([[5000, 0]]) }, fired: ['M04 OK'] },
    ],
    notApplicable: [{ log: 'iopat-balanced-shared-write.darshan' }],
  });
});
