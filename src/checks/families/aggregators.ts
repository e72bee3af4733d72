import { defineCheck } from '../define-check.js';
import type { Check } from '../types.js';

type Relation = 'fewer' | 'more' | 'equal';
const LEVEL = { fewer: 'OK', more: 'HIGH', equal: 'OK' } as const;

/**
 * M08/M09/M10: MPI-IO aggregators (`cb_nodes` hint) vs compute nodes. Needs the node count (`--nodes`, or Slurm
 * `sacct` found by the CLI). Numbers are compared as numbers (Drishti compares strings, SPEC §7.6).
 *
 * `--drishti` reads `cb_nodes` from Darshan's `h` metadata as Drishti does — those are the hints Darshan used to
 * write its own log, so the insight says so. The default mode uses only the application's hints (`--hints`).
 */
export function aggregators(code: 'M08' | 'M09' | 'M10', rel: Relation): Check<never, Relation, 'onePerNode'> {
  return defineCheck({
    meta: {
      code,
      slug: rel === 'more' ? 'inter-node-aggregators' : rel === 'fewer' ? 'intra-node-aggregators' : 'one-aggregator-per-node',
      title: 'One MPI-IO aggregator per compute node',
      failureTitle: rel === 'more' ? 'More MPI-IO aggregators than compute nodes' : rel === 'fewer' ? 'Fewer MPI-IO aggregators than compute nodes' : 'One MPI-IO aggregator per compute node',
      description:
        'Collective MPI-IO funnels data through `cb_nodes` aggregator ranks. More aggregators than nodes puts several on ' +
        'one node, sharing its network link; one per node is the usual best setting.',
      panel: 'OPERATIONS',
      layer: 'MPI-IO',
      scope: 'job',
      level: LEVEL[rel],
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
        drishti: code,
        differences: [
          { id: 'application-hints', description: "Drishti reads cb_nodes from Darshan's `h` metadata, which holds the hints Darshan used to write its log (nearly always cb_nodes=4), not the application's; the default mode uses only hints given with --hints." },
          { id: 'numeric-compare', description: 'Drishti compares cb_nodes and the node count as strings ("16" < "4"); IOLens compares numbers in both modes.' },
        ],
      },
    },
    run(ctx) {
      ctx.fact('mpiio.totals');
      const nodes = ctx.env.nodes;
      if (nodes === null) return;
      const hints = ctx.mode === 'drishti' ? ctx.fact('hints').entries : ctx.env.applicationHints?.entries ?? [];
      let cb: number | null = null;
      for (const [k, v] of hints) if (k === 'cb_nodes' && /^\s*\d+\s*$/.test(v)) cb = Number(v);
      if (cb === null) return;
      const actual: Relation = cb > nodes ? 'more' : cb < nodes ? 'fewer' : 'equal';
      if (actual !== rel) return;
      const hintSource = ctx.mode === 'drishti' ? "Darshan's own log-writing hints" : 'application hints';
      ctx.report({
        messageId: rel,
        data: { aggregators: cb, nodes, hintSource },
        evidence: [
          { name: 'cbNodes', value: cb, unit: 'nodes', source: ctx.mode === 'drishti' ? 'job metadata h (cb_nodes)' : '--hints cb_nodes' },
          { name: 'computeNodes', value: nodes, unit: 'nodes', source: 'sacct NNodes or --nodes' },
        ],
        recommendations: rel === 'more' ? ['onePerNode'] : [],
      });
    },
  });
}
