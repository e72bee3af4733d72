import { test } from 'node:test';
import check from './m09-inter-node-aggregators.js';
import { runCheckCases } from '../testing/check-tester.js';

// example.darshan carries Darshan's own hints (cb_nodes=4). No example log has a Slurm node count, so the node
// count comes from the case (as from --nodes).
test('M09 inter-node-aggregators', () => {
  runCheckCases(check, {
    fires: [
      { log: 'example.darshan', mode: 'drishti', nodes: 2, expect: { data: { aggregators: 4, nodes: 2, hintSource: "Darshan's own log-writing hints" } } },
      { log: 'example.darshan', mode: 'default', nodes: 4, applicationHints: 'cb_nodes=8', expect: { data: { aggregators: 8, nodes: 4, hintSource: 'application hints' } } },
    ],
    quiet: [
      // Node count unknown (no sacct, no --nodes).
      { log: 'example.darshan', mode: 'drishti', fired: ['P01 INFO', 'P03 INFO', 'P08 HIGH', 'P10 WARN', 'P10 WARN', 'P14 OK', 'M05 OK', 'M06 WARN', 'M07 WARN'] },
      // Default mode ignores Darshan's own log-writing hints.
      { log: 'example.darshan', mode: 'default', nodes: 2, fired: ['P01 INFO', 'P03 INFO', 'P14 OK', 'M05 OK', 'M07 INFO', 'D12 WARN'] },
    ],
    notApplicable: [{ log: 'iopat-balanced-shared-write.darshan', nodes: 4 }],
  });
});
