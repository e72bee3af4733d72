import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { clusterStore } from '../clustering/index.js';
import { defaultJobFeatures, readStoreTable, saveBundle, trainBundle, type ModelBundle } from '../models/index.js';
import { toolVersion } from '../pipeline/resources.js';
import { ingest } from '../store/ingest.js';
import { makeArchive } from '../store/synth-archive.js';
import { packageRoot } from '../util/package-root.js';
import { relocatePaths } from '../store/ingest.js';

/** Where the sample store lives: $XDG_CACHE_HOME/iolens (or ~/.cache/iolens), one folder per IOLens version. */
export function sampleDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'iolens', `sample-${toolVersion()}`);
}

export interface SampleStore {
  readonly db: string;
  readonly model: string;
  /** Whether this call built it (false: it was there already). */
  readonly built: boolean;
}

/** The throughput the demo model predicts (the jobs table's default target of `iolens train`). */
const TARGET = 'io_mibs';

/**
 * A store as a facility would prepare it for the service, by the same code as the commands: the logs ingested
 * (`iolens ingest`), clustered with local models (`iolens cluster`: HDBSCAN* over Gauge's features; groups of at
 * least `minClusterSize` jobs, models for groups of at least 30), and a throughput model of the jobs table
 * (`iolens train` with its default features, gradient-boosted trees only). Returns the model.
 */
export async function prepareStore(db: string, inputs: readonly string[], opts: { minClusterSize?: number; seed?: number; note?: string } = {}): Promise<ModelBundle> {
  await ingest({ db, inputs: [...inputs], jobs: 0 });
  // One thread: a few hundred rows cluster faster than worker threads start.
  await clusterStore({ db, minClusterSize: opts.minClusterSize ?? 30, models: { minRows: 30 }, note: opts.note ?? null, threads: 1 });
  const features = defaultJobFeatures();
  const loaded = await readStoreTable(db, 'jobs', [...features.specs.map((s) => s.name), TARGET], ['hash']);
  return trainBundle({ loaded, db, target: TARGET, features, key: 'hash', models: ['gbdt'], seed: opts.seed ?? 1 });
}

/** Staging folders of sample builds whose process is gone (killed mid-build). */
function removeDeadStaging(dir: string): void {
  const parent = dirname(dir);
  if (!existsSync(parent)) return;
  const prefix = `${basename(dir)}.building-`;
  for (const f of readdirSync(parent)) {
    if (!f.startsWith(prefix)) continue;
    const pid = Number(f.slice(prefix.length).split('-')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) rmSync(join(parent, f), { recursive: true, force: true });
  }
}

/**
 * The demo store of `iolens serve --sample`, built on first use: the bundled sample log(s) plus a synthetic archive
 * of small production-like logs (the ingest benchmark's generator, fixed seed), prepared as `prepareStore` does.
 */
export async function ensureSampleStore(dir = sampleDir(), log: (line: string) => void = () => undefined, logs = 300): Promise<SampleStore> {
  const db = join(dir, 'sample.duckdb');
  const model = join(dir, 'sample-model.json');
  if (existsSync(db) && existsSync(model)) return { db, model, built: false };
  log(`building the sample store in ${dir} (first start only)…`);
  // Built in a staging folder of this process's own and swapped in whole when complete: an interrupted build leaves
  // no half store behind, and two first starts at once each build their own (the first to finish is kept).
  const work = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  removeDeadStaging(dir);
  mkdirSync(work, { recursive: true });
  try {
    const archive = join(work, 'logs');
    makeArchive(archive, { logs, seed: 16 });
    const samples = join(packageRoot(), 'samples');
    const inputs = [archive, ...readdirSync(samples).filter((f) => f.endsWith('.darshan')).map((f) => join(samples, f))];
    const bundle = await prepareStore(join(work, 'sample.duckdb'), inputs, { note: 'sample store of iolens serve --sample' });
    saveBundle(join(work, 'sample-model.json'), bundle, true);
    // the jobs point at their logs where they will be once the folder is swapped in, so that job pages read them
    await relocatePaths(join(work, 'sample.duckdb'), work, dir);
    mkdirSync(dirname(dir), { recursive: true });
    // a folder left half-built by an older IOLens is moved aside first (never one that is complete)
    if (existsSync(dir) && !(existsSync(db) && existsSync(model))) renameSync(dir, `${dir}.stale-${process.pid}`);
    try {
      renameSync(work, dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // another start finished first: its store is complete and in use; this one is dropped
      if (!((code === 'ENOTEMPTY' || code === 'EEXIST') && existsSync(db) && existsSync(model))) throw err;
      log('another start built the sample store first: using it');
      return { db, model, built: false };
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(`${dir}.stale-${process.pid}`, { recursive: true, force: true });
  }
  log(`sample store ready: ${db}`);
  return { db, model, built: true };
}
