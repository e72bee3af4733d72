import { test } from 'node:test';
import check from './m07-blocking-writes.js';
import { runCheckCases } from '../testing/check-tester.js';
import { mpiioTotals } from '../testing/facts.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('M07 blocking-writes', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', expect: { details: 0, recommendations: ['asyncVol', 'nonBlocking'] } },
      { log: 'imbalanced-io.darshan', mode: 'drishti', expect: { details: 0, recommendations: ['nonBlocking'] } },
      { log: 'example.darshan', mode: 'default', expect: { details: 0, recommendations: ['asyncVol', 'nonBlocking'] } },
    ],
    quiet: [
      { facts: { 'mpiio.totals': mpiioTotals({ collWrites: 10, nbWrites: 2 }), hdf5: { h5f: false, h5d: false, mpiioHdf5Name: false } }, fired: ['M05 OK'] },
      // Default mode: a job that never writes through MPI-IO gets no M07 (Drishti prints it anyway).
      { facts: { 'mpiio.totals': mpiioTotals({ collReads: 10 }), hdf5: { h5f: false, h5d: false, mpiioHdf5Name: false } }, fired: ['M04 OK'] },
    ],
    notApplicable: [
      { log: 'iopat-balanced-shared-write.darshan' },
    ],
  });
});
