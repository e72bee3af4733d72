import type { ClusterNodeExplanation, ClusterNodeRows, ClusterNodeSummary, ClusterNodeView } from '../contract/index.js';
import type { StoreSource } from '../store/live.js';
import { appHistory, type HistoryJob } from '../store/history.js';
import { clusterMemberJobs, clusterNodeSample, clusterRunList, clusterSubtree, clusterTreeNodes } from '../store/queries/clusters.js';
import { jobsPage, jobWithReport, storeUploads, type JobFilter, type JobsPage, type StoredJob, type UploadRecord } from '../store/queries/jobs.js';
import { jsonCell, type Row } from '../store/queries/read.js';
import { predict } from '../learn/index.js';
import { modelTable, optionalColumns, requiredColumns, type ModelBundle } from '../models/index.js';
import { rowsTable } from './learned.js';
import { targetSection, type Section } from '../store/summary.js';
import { connectionOf } from '../store/db.js';

/**
 * What the web service reads from (and, with --write, writes to) a job store, over the store's operations
 * (src/store/queries): this file holds no SQL. It adds the uploads' group commit, the cluster tree's aggregates and
 * the learned model's predictions.
 */

export { SORT_COLUMNS, type JobFilter, type SortColumn } from '../store/queries/jobs.js';

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export class JobStore {
  /** Uploads waiting for the next commit, and whether a commit is running (DuckDB: one writer). */
  private pending: (UploadRecord & { done: (added: boolean) => void; fail: (e: unknown) => void })[] = [];
  private committing = false;

  /** `source`: the store, opened per piece of work (StoreLeases) so that ingest can write it between two. */
  constructor(
    readonly source: StoreSource,
    readonly writable: boolean,
  ) {}

  /**
   * Stores an uploaded job (row and report) unless its hash is there; resolves to whether the job was new. Uploads
   * that arrive while a commit runs are committed together in the next one (group commit: one transaction, one
   * staging file), so concurrent uploads do not queue behind one transaction each.
   */
  storeUpload(hash: string, row: string, report: string, version: string): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      this.pending.push({ hash, row, report, version, done, fail });
      if (!this.committing) void this.commit();
    });
  }

  private async commit(): Promise<void> {
    this.committing = true;
    while (this.pending.length) {
      const batch = this.pending.splice(0);
      try {
        const added = await this.source.use((s) => storeUploads(s, batch));
        // The first upload of a new hash in the batch is the one that added it.
        const told = new Set<string>();
        for (const b of batch) {
          const isNew = added.has(b.hash) && !told.has(b.hash);
          told.add(b.hash);
          b.done(isNew);
        }
      } catch (err) {
        for (const b of batch) b.fail(err);
      }
    }
    this.committing = false;
  }

  /** Filtered, sorted page of jobs and the number of jobs that match. */
  async jobs(f: JobFilter): Promise<JobsPage> {
    return this.source.use((s) => jobsPage(s, f));
  }

  /** One job's row, its stored report (upgraded to today's schema, or null) and its cluster memberships. */
  async job(hash: string): Promise<StoredJob | null> {
    return this.source.use((s) => jobWithReport(s, hash));
  }

  /** Every job of an application (`iolens compare`'s history), on a connection of its own. */
  async history(app: string): Promise<HistoryJob[]> {
    return this.source.use((s) => appHistory(s, app));
  }

  /** Slow storage targets over time across the store's jobs (`summary --section targets`), at most `top` rows. */
  async targets(top: number): Promise<Section> {
    return this.source.use((s) => targetSection(connectionOf(s), top));
  }

  /** Clustering runs, newest first. */
  async runs(): Promise<Row[]> {
    return this.source.use((s) => clusterRunList(s));
  }

  /** Node ids of a run's subtree under `node` (the node itself included). */
  async subtree(run: string, node: number): Promise<number[]> {
    return this.source.use((s) => clusterSubtree(s, run, node));
  }

  /** Every node of a run with its jobs, median throughput and I/O time over its subtree. */
  async tree(run: string): Promise<ClusterNodeView[]> {
    const [nodes, members] = await this.source.use(async (s) => [await clusterTreeNodes(s, run), await clusterMemberJobs(s, run)] as const);
    const parent = new Map(nodes.map((n) => [Number(n.id), n.parent === null ? null : Number(n.parent)]));
    const thr = new Map<number, number[]>();
    const io = new Map<number, number>();
    const count = new Map<number, number>();
    for (const m of members) {
      for (let n: number | null | undefined = Number(m.node); n !== null && n !== undefined; n = parent.get(n)) {
        count.set(n, (count.get(n) ?? 0) + 1);
        if (typeof m.mibs === 'number' && m.mibs > 0) thr.set(n, [...(thr.get(n) ?? []), m.mibs]);
        if (typeof m.io_time === 'number') io.set(n, (io.get(n) ?? 0) + m.io_time);
      }
    }
    return nodes.map((n) => {
      const id = Number(n.id);
      const summary = jsonCell(n.summary) as ClusterNodeSummary | null;
      return {
        id,
        parent: n.parent === null ? null : Number(n.parent),
        depth: Number(n.depth),
        size: Number(n.size),
        selected: n.selected === true,
        label: n.label === null ? null : Number(n.label),
        stability: typeof n.stability === 'number' ? n.stability : null,
        lambdaBirth: typeof n.lambda_birth === 'number' ? n.lambda_birth : null,
        jobs: count.get(id) ?? 0,
        medianThroughput: median(thr.get(id) ?? []) ?? (typeof n.target_median === 'number' ? n.target_median : null),
        ioTime: io.has(id) ? io.get(id)! : (summary?.io_time?.total ?? null),
        summary,
        explanation: jsonCell(n.explanation) as ClusterNodeExplanation | null,
        model: jsonCell(n.model),
      };
    });
  }

  /**
   * A node's rows for parallel coordinates: the run's feature values of up to `cap` member jobs (an even spread in
   * key order), and with a model its predicted and measured target.
   */
  async nodeRows(run: string, node: number, cap: number, model: ModelBundle | null): Promise<ClusterNodeRows> {
    const need = model ? [...new Set([...requiredColumns(model), ...optionalColumns(model)])] : undefined;
    const sample = await this.source.use((s) => clusterNodeSample(s, run, node, cap, need));
    if (!sample) return { features: [], rows: [], scatter: null, target: null };
    const { features, rows, jobs: got } = sample;
    let scatter: { key: string; predicted: number; measured: number | null; ood: boolean }[] | null = null;
    let target: string | null = null;
    if (model && got) {
      target = model.inputs.target;
      const loaded = rowsTable(model, got);
      if (loaded) {
        const p = predict(model.model, modelTable(model, loaded));
        scatter = got.map((g, i) => ({ key: String(g.hash), predicted: p.prediction[i], measured: typeof g[target!] === 'number' ? (g[target!] as number) : null, ood: p.ood[i] }));
      }
    }
    return { features, rows, scatter, target };
  }
}
