import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { serializeModel } from '../learn/index.js';
import { toolVersion } from '../pipeline/resources.js';
import { openStore } from '../store/db.js';
import { ingest } from '../store/ingest.js';
import { makeArchive } from '../store/synth-archive.js';
import { packageRoot } from '../util/package-root.js';
import { clusterStore } from './cluster-store.js';

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

/**
 * The demo store of `iolens serve --sample`, built on first use: the bundled sample log(s) plus a synthetic archive
 * of 160 small production-like logs (the ingest benchmark's generator, fixed seed), ingested, clustered (HDBSCAN*
 * over the Gauge features) and with a throughput model for the dashboard's predicted-vs-measured plot.
 */
export async function ensureSampleStore(dir = sampleDir(), log: (line: string) => void = () => undefined, logs = 160): Promise<SampleStore> {
  const db = join(dir, 'sample.duckdb');
  const model = join(dir, 'sample-model.json');
  if (existsSync(db) && existsSync(model)) return { db, model, built: false };
  log(`building the sample store in ${dir} (first start only)…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = join(dir, 'logs');
  makeArchive(archive, { logs, seed: 16 });
  const samples = join(packageRoot(), 'samples');
  const inputs = [archive, ...readdirSync(samples).filter((f) => f.endsWith('.darshan')).map((f) => join(samples, f))];
  const tmp = `${db}.tmp`;
  await ingest({ db: tmp, inputs, jobs: 0 });
  const store = await openStore(tmp);
  try {
    const r = await clusterStore(store, { note: 'sample store of iolens serve --sample' });
    if (r.model) writeFileSync(model, serializeModel(r.model));
  } finally {
    store.close();
  }
  renameSync(tmp, db);
  log(`sample store ready: ${db}`);
  return { db, model, built: true };
}
