import { UsageError } from '../../contract/errors.js';
import { appendRow, sqlString, type Store } from '../db.js';
import type { Cell } from '../row.js';
import { CLUSTER_COLUMNS, CLUSTER_MEMBER_COLUMNS, CLUSTER_RUN_COLUMNS } from '../schema.js';
import { ident, jsonCell, readRows, type Row } from './read.js';

/**
 * Clustering runs in the store (schema 3 on: cluster_runs, clusters, cluster_members): saving a run under the next
 * free id `run-N` (nothing is ever replaced), reading runs back, and what the web service's cluster pages read.
 */

/** A run to save, its cells in column order without the run id (which is assigned here). */
export interface ClusterRunRows {
  /** cluster_runs' cells after run_id. */
  readonly run: readonly Cell[];
  /** One per node: clusters' cells after run_id. */
  readonly nodes: readonly (readonly Cell[])[];
  /** One per member: cluster_members' cells after run_id. */
  readonly members: Iterable<readonly Cell[]>;
}

/** Saves a run in one transaction under the next free id (one more than the largest `run-N`) and returns the id. */
export async function insertClusterRun(store: Store, rows: ClusterRunRows): Promise<string> {
  const con = store.con;
  await con.run('BEGIN TRANSACTION');
  try {
    const r = await con.runAndReadAll(`SELECT max(TRY_CAST(regexp_extract(run_id, '^run-([0-9]+)$', 1) AS BIGINT)) FROM cluster_runs`);
    const max = r.getRows()[0][0];
    const id = `run-${max === null ? 1 : Number(max) + 1}`;
    const runs = await con.createAppender('cluster_runs');
    appendRow(runs, CLUSTER_RUN_COLUMNS, [id, ...rows.run]);
    runs.closeSync();
    const clusters = await con.createAppender('clusters');
    for (const n of rows.nodes) appendRow(clusters, CLUSTER_COLUMNS, [id, ...n]);
    clusters.closeSync();
    const members = await con.createAppender('cluster_members');
    for (const m of rows.members) appendRow(members, CLUSTER_MEMBER_COLUMNS, [id, ...m]);
    members.closeSync();
    await con.run('COMMIT');
    return id;
  } catch (err) {
    await con.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Ids of the stored runs, oldest first (by run number). */
export async function clusterRunIds(store: Store): Promise<string[]> {
  const r = await store.con.runAndReadAll(`SELECT run_id FROM cluster_runs ORDER BY TRY_CAST(regexp_extract(run_id, '^run-([0-9]+)$', 1) AS BIGINT) NULLS FIRST, run_id`);
  return r.getRows().map((x) => String(x[0]));
}

/** A stored run's cluster_runs row, created_at as ISO 8601 UTC text; null when there is no such run. */
export async function clusterRunRecord(store: Store, runId: string): Promise<unknown[] | null> {
  const r = await store.con.runAndReadAll(
    `SELECT run_id, strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ'), iolens_version, source_table, key_column, features, params, rows, clusters, noise, note FROM cluster_runs WHERE run_id = ${sqlString(runId)}`,
  );
  return r.getRows()[0] ?? null;
}

/** A stored run's nodes (clusters rows in id order): id, parent, depth, size, λ birth and death, stability, selected, label, target median, summary, model, explanation. */
export async function clusterNodeRecords(store: Store, runId: string): Promise<unknown[][]> {
  const c = await store.con.runAndReadAll(
    `SELECT id, parent, depth, size, lambda_birth, lambda_death, stability, selected, label, target_median, summary, model, explanation FROM clusters WHERE run_id = ${sqlString(runId)} ORDER BY id`,
  );
  return c.getRows();
}

/** Key and cluster of every row of a stored run, in the order they were saved (the source's key order). */
export async function clusterMembers(store: Store, runId: string): Promise<{ key: string; cluster: number }[]> {
  const r = await store.con.runAndReadAll(`SELECT key, cluster FROM cluster_members WHERE run_id = ${sqlString(runId)} ORDER BY rowid`);
  return r.getRows().map((x) => ({ key: String(x[0]), cluster: Number(x[1]) }));
}

/** Clustering runs, newest first, features and params parsed (the web service's list). */
export async function clusterRunList(store: Store): Promise<Row[]> {
  const rows = await readRows(
    store,
    `SELECT run_id, created_at::VARCHAR AS created_at, iolens_version, source_table, key_column, features, params, rows, clusters, noise, note FROM cluster_runs ORDER BY created_at DESC, run_id DESC`,
  );
  return rows.map((r) => ({ ...r, features: jsonCell(r.features) as Row[string], params: jsonCell(r.params) as Row[string] }));
}

/** Node ids of a run's subtree under `node` (the node itself included). */
export async function clusterSubtree(store: Store, run: string, node: number): Promise<number[]> {
  if (!Number.isSafeInteger(node) || node < 0) throw new UsageError(`a cluster node is a whole number from 0 (got ${String(node).slice(0, 40)})`);
  const all = await readRows(store, 'SELECT id, parent FROM clusters WHERE run_id = ?', [run]);
  const children = new Map<number, number[]>();
  for (const r of all) if (r.parent !== null) children.set(Number(r.parent), [...(children.get(Number(r.parent)) ?? []), Number(r.id)]);
  const out: number[] = [];
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...(children.get(n) ?? []));
  }
  return out;
}

/** `node` is one of a list bound as one parameter (`nodeList`): node ids are values, never SQL text. */
export const IN_NODES = 'list_contains(CAST(? AS BIGINT[]), node)';
export const nodeList = (nodes: readonly number[]): string => `[${nodes.map((n) => String(Math.trunc(Number(n)))).join(',')}]`;

/** A run's nodes as the cluster pages draw them (rows in id order; JSON columns as text). */
export async function clusterTreeNodes(store: Store, run: string): Promise<Row[]> {
  return readRows(store, 'SELECT id, parent, depth, size, selected, label, stability, lambda_birth, target_median, summary, explanation, model FROM clusters WHERE run_id = ? ORDER BY id', [run]);
}

/** Each member of a run: its leaf node, its job's throughput (`mibs`) and I/O time (members that are jobs only). */
export async function clusterMemberJobs(store: Store, run: string): Promise<Row[]> {
  return readRows(store, 'SELECT m.node, j.io_mibs AS mibs, j.io_time FROM cluster_members m JOIN jobs j ON j.hash = m.key WHERE m.run_id = ?', [run]);
}

/** A node's sample for parallel coordinates (see clusterNodeSample). */
export interface ClusterNodeSample {
  /** The clustered table and its key column. */
  readonly table: string;
  /** The run's feature columns that the table still has. */
  readonly features: string[];
  /** Up to `cap` members (an even spread in key order): key and feature values. */
  readonly rows: { key: string; values: (number | null)[] }[];
  /** The columns of the clustered table. */
  readonly columns: ReadonlySet<string>;
  /** With `jobColumns` on a run over `jobs` whose columns all exist: hash and those columns of the sampled jobs. */
  readonly jobs: Row[] | null;
}

/**
 * The rows of a node's subtree for parallel coordinates: the run's feature values of up to `cap` members, an even
 * spread in key order; null when the run is unknown or its table lost the key column. The identifiers put into SQL
 * text are columns checked against the table's schema.
 */
export async function clusterNodeSample(store: Store, run: string, node: number, cap: number, jobColumns?: readonly string[]): Promise<ClusterNodeSample | null> {
  const [r] = await readRows(store, 'SELECT source_table, key_column, features FROM cluster_runs WHERE run_id = ?', [run]);
  if (!r) return null;
  const table = String(r.source_table);
  const key = String(r.key_column);
  const known = new Set((await readRows(store, 'SELECT column_name FROM information_schema.columns WHERE table_name = ?', [table])).map((c) => String(c.column_name)));
  if (!known.has(key)) return null;
  const features = ((jsonCell(r.features) as string[] | null) ?? []).filter((f) => typeof f === 'string' && known.has(f));
  const nodes = await clusterSubtree(store, run, node);
  const [{ n }] = await readRows(store, `SELECT count(*) AS n FROM cluster_members WHERE run_id = ? AND ${IN_NODES}`, [run, nodeList(nodes)]);
  const step = Math.max(1, Math.ceil(Number(n) / cap));
  // An even spread of the node's members in key order, at most `cap`.
  const picked = `SELECT key FROM (SELECT key, row_number() OVER (ORDER BY key) AS rn FROM cluster_members WHERE run_id = ? AND ${IN_NODES}) WHERE (rn - 1) % ${step} = 0 LIMIT ${cap}`;
  const data = features.length
    ? await readRows(store, `SELECT CAST(${ident(key)} AS VARCHAR) AS __key, ${features.map(ident).join(', ')} FROM ${ident(table)} WHERE CAST(${ident(key)} AS VARCHAR) IN (${picked}) ORDER BY 1`, [run, nodeList(nodes)])
    : [];
  const rows = data.map((d) => ({ key: String(d.__key), values: features.map((f) => (typeof d[f] === 'number' ? (d[f] as number) : null)) }));
  let jobs: Row[] | null = null;
  if (jobColumns && table === 'jobs' && rows.length && jobColumns.every((c) => known.has(c))) {
    jobs = await readRows(store, `SELECT hash, ${jobColumns.map(ident).join(', ')} FROM jobs WHERE hash IN (${picked}) ORDER BY hash`, [run, nodeList(nodes)]);
  }
  return { table, features, rows, columns: known, jobs };
}
