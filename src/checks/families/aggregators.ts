import type { CheckContext } from '../types.js';

type Relation = 'fewer' | 'more' | 'equal';

/**
 * M08/M09/M10: MPI-IO aggregators (`cb_nodes` hint) vs compute nodes. Needs the node count (`--nodes`, or Slurm
 * `sacct` found by the CLI). Numbers are compared as numbers (Drishti compares strings, SPEC §7.6).
 *
 * `--drishti` reads `cb_nodes` from Darshan's `h` metadata as Drishti does — those are the hints Darshan used to
 * write its own log, so the insight says so. The default mode uses only the application's hints (`--hints`).
 */
export function runAggregators(ctx: CheckContext<never, Relation, 'onePerNode'>, rel: Relation): void {
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
}
