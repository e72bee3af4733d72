// The hierarchy document written by `iolens cluster --out FILE` (docs/cluster.md, "The hierarchy file").
import { jsonText, type StoredRun } from './save.js';

/** Format name and version of the hierarchy document. */
export const HIERARCHY_FORMAT = 'iolens-clusters';
export const HIERARCHY_VERSION = 1;

/** The document as a plain object (numbers may be ±Infinity until written with `hierarchyJson`). */
export function hierarchyDocument(run: StoredRun): Record<string, unknown> {
  const children = new Map<number, number[]>();
  for (const n of run.nodes) if (n.parent !== null) children.set(n.parent, [...(children.get(n.parent) ?? []), n.id]);
  const sizeOf = new Map(run.nodes.map((n) => [n.id, n.size]));
  const i = run.info;
  return {
    format: HIERARCHY_FORMAT,
    version: HIERARCHY_VERSION,
    infinity: 'λ, distances and stabilities that are infinite (exact duplicate rows) are the string "Infinity"',
    run: {
      id: run.run_id,
      created_at: run.created_at,
      iolens_version: run.iolens_version,
      note: run.note,
      table: i.source_table,
      key: i.key_column,
      features: i.features,
      params: i.params,
      rows: i.rows,
      clusters: i.clusters,
      noise: i.noise,
    },
    clusters: run.nodes.map((n) => {
      const kids = children.get(n.id) ?? [];
      return {
        id: n.id,
        parent: n.parent,
        depth: n.depth,
        children: kids,
        size: n.size,
        // Rows that leave this node directly rather than through a child cluster (its fringe).
        direct: n.size - kids.reduce((a, k) => a + (sizeOf.get(k) ?? 0), 0),
        lambda_birth: n.lambda_birth,
        lambda_death: n.lambda_death,
        distance_birth: n.lambda_birth > 0 ? 1 / n.lambda_birth : Infinity,
        stability: n.stability,
        selected: n.selected,
        label: n.label,
        target_median: n.target_median,
        summary: n.summary,
        model: n.model,
        explanation: n.explanation,
      };
    }),
  };
}

/** The document as JSON text (one space indentation, infinities as "Infinity"). */
export function hierarchyJson(run: StoredRun): string {
  return jsonText(hierarchyDocument(run), 1) + '\n';
}
