// Clustering runs in the job store (schema 3: cluster_runs, clusters, cluster_members). A run is saved in one
// transaction under the next free id `run-N`; nothing is ever replaced. Infinite λ and stability are NULL there.
import type { DuckDBConnection } from '@duckdb/node-api';
import { InputError } from '../contract/errors.js';
import { appendRow, sqlString } from '../store/db.js';
import { CLUSTER_COLUMNS, CLUSTER_MEMBER_COLUMNS, CLUSTER_RUN_COLUMNS } from '../store/schema.js';
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

/** The next free run id: one more than the largest `run-N` in the store. */
async function nextRunId(con: DuckDBConnection): Promise<string> {
  const r = await con.runAndReadAll(`SELECT max(TRY_CAST(regexp_extract(run_id, '^run-([0-9]+)$', 1) AS BIGINT)) FROM cluster_runs`);
  const max = r.getRows()[0][0];
  return `run-${max === null ? 1 : Number(max) + 1}`;
}

/** Saves a run in one transaction and returns it as stored. */
export async function saveRun(con: DuckDBConnection, run: ClusterRun, meta: { note: string | null; version: string; now?: Date }): Promise<StoredRun> {
  const now = meta.now ?? new Date();
  await con.run('BEGIN TRANSACTION');
  try {
    const id = await nextRunId(con);
    const i = run.info;
    const runs = await con.createAppender('cluster_runs');
    appendRow(runs, CLUSTER_RUN_COLUMNS, [
      id,
      now.getTime() * 1000,
      meta.version,
      i.source_table,
      i.key_column,
      jsonText(i.features),
      jsonText(i.params),
      i.rows,
      i.clusters,
      i.noise,
      meta.note,
    ]);
    runs.closeSync();
    const clusters = await con.createAppender('clusters');
    for (const n of run.nodes) {
      appendRow(clusters, CLUSTER_COLUMNS, [
        id,
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
      ]);
    }
    clusters.closeSync();
    const members = await con.createAppender('cluster_members');
    const m = run.members;
    for (let r = 0; r < run.keys.length; r++) {
      appendRow(members, CLUSTER_MEMBER_COLUMNS, [id, run.keys[r], m.cluster[r], m.node[r], m.probability[r], m.outlier_score[r]]);
    }
    members.closeSync();
    await con.run('COMMIT');
    return { run_id: id, created_at: now.toISOString(), iolens_version: meta.version, note: meta.note, info: run.info, nodes: run.nodes };
  } catch (err) {
    await con.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Ids of the stored runs, oldest first. */
export async function runIds(con: DuckDBConnection): Promise<string[]> {
  const r = await con.runAndReadAll(
    `SELECT run_id FROM cluster_runs ORDER BY TRY_CAST(regexp_extract(run_id, '^run-([0-9]+)$', 1) AS BIGINT) NULLS FIRST, run_id`,
  );
  return r.getRows().map((x) => String(x[0]));
}

const parse = (v: unknown): unknown => (v === null ? null : JSON.parse(String(v)));

/** Reads a stored run back ('latest' = the highest run number). */
export async function loadRun(con: DuckDBConnection, runId: string): Promise<StoredRun> {
  const ids = await runIds(con);
  if (ids.length === 0) throw new InputError('the store holds no clustering run yet (run iolens cluster)');
  const id = runId === 'latest' ? ids[ids.length - 1] : runId;
  if (!ids.includes(id)) throw new InputError(`no clustering run ${runId} in the store (runs: ${ids.length > 6 ? `${ids.slice(0, 3).join(', ')} … ${ids[ids.length - 1]}` : ids.join(', ')})`);
  const r = await con.runAndReadAll(
    `SELECT run_id, strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ'), iolens_version, source_table, key_column, features, params, rows, clusters, noise, note FROM cluster_runs WHERE run_id = ${sqlString(id)}`,
  );
  const [rid, created, version, table, key, features, params, rows, clusters, noise, note] = r.getRows()[0];
  const c = await con.runAndReadAll(
    `SELECT id, parent, depth, size, lambda_birth, lambda_death, stability, selected, label, target_median, summary, model, explanation FROM clusters WHERE run_id = ${sqlString(id)} ORDER BY id`,
  );
  const nodes: NodeRecord[] = c.getRows().map((x) => ({
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
export async function loadMembers(con: DuckDBConnection, runId: string): Promise<{ key: string; cluster: number }[]> {
  const r = await con.runAndReadAll(`SELECT key, cluster FROM cluster_members WHERE run_id = ${sqlString(runId)} ORDER BY rowid`);
  return r.getRows().map((x) => ({ key: String(x[0]), cluster: Number(x[1]) }));
}
