import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { clusterStore } from '../clustering/index.js';
import { defaultJobFeatures, readStoreTable, saveBundle, trainBundle, type ModelBundle } from '../models/index.js';
import { toolVersion } from '../pipeline/resources.js';
import { ingest } from '../store/ingest.js';
import { makeArchive } from '../store/synth-archive.js';
import { packageRoot } from '../util/package-root.js';

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

/**
 * The demo store of `iolens serve --sample`, built on first use: the bundled sample log(s) plus a synthetic archive
 * of small production-like logs (the ingest benchmark's generator, fixed seed), prepared as `prepareStore` does.
 */
export async function ensureSampleStore(dir = sampleDir(), log: (line: string) => void = () => undefined, logs = 300): Promise<SampleStore> {
  const db = join(dir, 'sample.duckdb');
  const model = join(dir, 'sample-model.json');
  if (existsSync(db) && existsSync(model)) return { db, model, built: false };
  log(`building the sample store in ${dir} (first start only)…`);
  // Built in a folder beside it and renamed when complete: an interrupted build leaves no half store behind.
  const work = `${dir}.building`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const archive = join(work, 'logs');
  makeArchive(archive, { logs, seed: 16 });
  const samples = join(packageRoot(), 'samples');
  const inputs = [archive, ...readdirSync(samples).filter((f) => f.endsWith('.darshan')).map((f) => join(samples, f))];
  const bundle = await prepareStore(join(work, 'sample.duckdb'), inputs, { note: 'sample store of iolens serve --sample' });
  saveBundle(join(work, 'sample-model.json'), bundle, true);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(work, dir);
  log(`sample store ready: ${db}`);
  return { db, model, built: true };
}
