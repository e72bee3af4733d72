import { defineCheck } from '../define-check.js';
import { runAggregators } from '../families/aggregators.js';

/** M09: more MPI-IO aggregators than compute nodes (HIGH). */
export default defineCheck({
  meta: {
    code: 'M09',
    slug: 'inter-node-aggregators',
    title: 'One MPI-IO aggregator per compute node',
    failureTitle: 'More MPI-IO aggregators than compute nodes',
    description:
      'Collective MPI-IO funnels data through `cb_nodes` aggregator ranks. More aggregators than nodes puts several ' +
      'on one node, sharing its network link; one per node is the usual best setting.',
    panel: 'OPERATIONS',
    layer: 'MPI-IO',
    scope: 'job',
    level: 'HIGH',
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
      drishti: 'M09',
      differences: [
        { id: 'application-hints', description: "Drishti reads cb_nodes from Darshan's `h` metadata, which holds the hints Darshan used to write its log (nearly always cb_nodes=4), not the application's; the default mode uses only hints given with --hints." },
        { id: 'numeric-compare', description: 'Drishti compares cb_nodes and the node count as strings ("16" < "4"); IOLens compares numbers in both modes.' },
      ],
    },
  },
  run(ctx) {
    runAggregators(ctx, 'more');
  },
});
