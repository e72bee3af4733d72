// Clustering runs in the job store (schema 3: cluster_runs, clusters, cluster_members). A run is saved in one
// transaction under the next free id `run-N`; nothing is ever replaced. Infinite λ and stability are NULL there.
import { InputError } from '../contract/errors.js';
import type { Store } from '../store/db.js';
import { clusterMembers, clusterNodeRecords, clusterRunIds, clusterRunRecord, insertClusterRun } from '../store/queries/clusters.js';
import type { ClusterRun, NodeRecord, RunInfo } from './run.js';

/** A run as kept in the store: what was clustered, its id and time, and every node of its hierarchy. */
export interface StoredRun {
  run_id: string;
  /** ISO 8601, UTC. */
  created_at: string;
  iolens_version: string;
  note: string | null;
  info: RunInfo;
  nodes: NodeRecord[];
}

/**
 * JSON text with infinities written explicitly: JSON has no Infinity, so ±∞ become the strings "Infinity" and
 * "-Infinity" (NaN becomes null). `Number("Infinity")` and Python's `float("Infinity")` read them back.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? null : v > 0 ? 'Infinity' : '-Infinity';
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
      return v;
    },
    indent,
  );
}

/** Reverses jsonText's encoding of infinities for the given number fields. */
function readNumber(v: unknown): number {
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (v === null || v === undefined) return NaN;
  return Number(v);
}

/** Saves a run in one transaction, under the next free id `run-N`, and returns it as stored. */
export async function saveRun(store: Store, run: ClusterRun, meta: { note: string | null; version: string; now?: Date }): Promise<StoredRun> {
  const now = meta.now ?? new Date();
  const i = run.info;
  const m = run.members;
  const id = await insertClusterRun(store, {
    run: [now.getTime() * 1000, meta.version, i.source_table, i.key_column, jsonText(i.features), jsonText(i.params), i.rows, i.clusters, i.noise, meta.note],
    nodes: run.nodes.map((n) => [
      n.id,
      n.parent,
      n.depth,
      n.size,
      n.lambda_birth,
      n.lambda_death,
      n.stability,
      n.selected,
      n.label,
      n.target_median,
      jsonText(n.summary),
      n.model ? jsonText(n.model) : null,
      n.explanation ? jsonText(n.explanation) : null,
    ]),
    members: run.keys.map((key, r) => [key, m.cluster[r], m.node[r], m.probability[r], m.outlier_score[r]]),
  });
  return { run_id: id, created_at: now.toISOString(), iolens_version: meta.version, note: meta.note, info: run.info, nodes: run.nodes };
}

/** Ids of the stored runs, oldest first. */
export async function runIds(store: Store): Promise<string[]> {
  return clusterRunIds(store);
}

const parse = (v: unknown): unknown => (v === null ? null : JSON.parse(String(v)));

/** Reads a stored run back ('latest' = the highest run number). */
export async function loadRun(store: Store, runId: string): Promise<StoredRun> {
  const ids = await runIds(store);
  if (ids.length === 0) throw new InputError('the store holds no clustering run yet (run iolens cluster)');
  const id = runId === 'latest' ? ids[ids.length - 1] : runId;
  if (!ids.includes(id)) throw new InputError(`no clustering run ${runId} in the store (runs: ${ids.length > 6 ? `${ids.slice(0, 3).join(', ')} … ${ids[ids.length - 1]}` : ids.join(', ')})`);
  const [rid, created, version, table, key, features, params, rows, clusters, noise, note] = (await clusterRunRecord(store, id))!;
  const nodes: NodeRecord[] = (await clusterNodeRecords(store, id)).map((x) => ({
    id: Number(x[0]),
    parent: x[1] === null ? null : Number(x[1]),
    depth: Number(x[2]),
    size: Number(x[3]),
    lambda_birth: readNumber(x[4]),
    // NULL is infinity in these two columns (store schema 3).
    lambda_death: x[5] === null ? Infinity : Number(x[5]),
    stability: x[6] === null ? Infinity : Number(x[6]),
    selected: Boolean(x[7]),
    label: x[8] === null ? null : Number(x[8]),
    target_median: x[9] === null ? null : Number(x[9]),
    summary: parse(x[10]) as NodeRecord['summary'],
    model: parse(x[11]) as NodeRecord['model'],
    explanation: parse(x[12]) as NodeRecord['explanation'],
  }));
  return {
    run_id: String(rid),
    created_at: String(created),
    iolens_version: String(version),
    note: note === null ? null : String(note),
    info: {
      source_table: String(table),
      key_column: String(key),
      features: parse(features) as string[],
      params: parse(params) as Record<string, unknown>,
      rows: Number(rows),
      clusters: Number(clusters),
      noise: Number(noise),
    },
    nodes,
  };
}

/** Key and cluster of every row of a stored run, in the order they were saved (the source's key order). */
export async function loadMembers(store: Store, runId: string): Promise<{ key: string; cluster: number }[]> {
  return clusterMembers(store, runId);
}
