import { test } from 'node:test';
import check from './p17-metadata-time.js';
import { runCheckCases } from '../testing/check-tester.js';

// Expectations checked against Drishti's own outputs (../shared/drishti-examples) in --drishti mode.
test('P17 metadata-time', () => {
  runCheckCases(check, {
    fires: [
      { log: 'skew-app.darshan', mode: 'drishti', expect: { data: { ranks: 1, seconds: 30 }, details: 0, recommendations: ['reduceMetadata'] } },
    ],
    quiet: [
      { log: 'example.darshan', mode: 'drishti' },
      { log: 'skew-app.darshan', mode: 'default' },
    ],
    notApplicable: [
      { log: 'iopat-stdio-small-records.darshan' },
    ],
  });
});
