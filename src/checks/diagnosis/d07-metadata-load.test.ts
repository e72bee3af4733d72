import { test } from 'node:test';
import check from './d07-metadata-load.js';
import { runCheckCases } from '../testing/check-tester.js';

test('D07 on labelled logs of the shared corpus', () => {
  runCheckCases(check, {
    fires: [
    { log: 'iopat-meta-heavy-fpp.darshan', expect: { data: { meta: 20000, data: 8000 } } },
    { log: 'iopat-meta-heavy-fpp-dxt-truncated.darshan' },
    ],
    quiet: [
    { log: 'iopat-meta-light.darshan' },
    { log: 'ior-healthy-posix-fpp-large.darshan' },
    { log: 'ior-small-seq-write-1k.darshan' },
    ],
  });
});
