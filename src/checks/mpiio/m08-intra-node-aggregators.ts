import { defineCheck } from '../define-check.js';
import { runAggregators } from '../families/aggregators.js';

/** M08: fewer MPI-IO aggregators than compute nodes (OK). */
export default defineCheck({
  meta: {
    code: 'M08',
    slug: 'intra-node-aggregators',
    title: 'One MPI-IO aggregator per compute node',
    failureTitle: 'Fewer MPI-IO aggregators than compute nodes',
    description:
      'Collective MPI-IO funnels data through `cb_nodes` aggregator ranks. More aggregators than nodes puts several ' +
      'on one node, sharing its network link; one per node is the usual best setting.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'OK',
    problem: 'aggregator-placement',
    requires: ['mpiio.totals', 'hints'],
    options: {},
    messages: {
      more: '{aggregators} MPI-IO aggregators (cb_nodes, {hintSource}) on {nodes} compute node(s): aggregators share nodes and need network transfers',
      fewer: '{aggregators} MPI-IO aggregators (cb_nodes, {hintSource}) on {nodes} compute node(s): fewer aggregators than nodes',
      equal: '{aggregators} MPI-IO aggregators (cb_nodes, {hintSource}) on {nodes} compute node(s): one per node',
    },
    recommendations: {
      onePerNode: { text: 'Set the cb_nodes hint to the number of compute nodes (one aggregator per node)', snippet: 'mpi-io-hints.sh' },
    },
    compat: {
      drishti: 'M08',
      differences: [
        { id: 'application-hints', description: "Drishti reads cb_nodes from Darshan's `h` metadata, which holds the hints Darshan used to write its log (nearly always cb_nodes=4), not the application's; the default mode uses only hints given with --hints." },
        { id: 'numeric-compare', description: 'Drishti compares cb_nodes and the node count as strings ("16" < "4"); IOLens compares numbers in both modes.' },
      ],
    },
  },
  run(ctx) {
    runAggregators(ctx, 'fewer');
  },
});
