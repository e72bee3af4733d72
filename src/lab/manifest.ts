import { readFileSync } from 'node:fs';
import { PROBLEMS } from '../contract/index.js';

/**
 * The lab's manifest (lab/MANIFEST.json, lab/README.md "The manifest"): one row per log of our own workloads, with
 * the problems the construction injects (`labels`, or `healthy`), its side effects (`also`), the workload family and
 * case, and the measured run time and bytes. The evaluation (src/eval/) and the learned-diagnosis test read it here.
 */
export interface LabRun {
  readonly file: string;
  readonly family: string;
  readonly case: string;
  /** The API the application calls: POSIX, STDIO, MPI-IO, HDF5 or PnetCDF. */
  readonly layer: string;
  readonly program: string;
  readonly params: Readonly<Record<string, string | number>>;
  readonly ranks: number;
  readonly dxt: boolean;
  /** Open MPI's MPI-IO component (`romio321`, `ompio`, or '' when not set). */
  readonly io: string;
  /** Injected problems in the report vocabulary, or `['healthy']`. */
  readonly labels: readonly string[];
  /** Problems that follow from the construction as side effects: naming them is not a false alarm. */
  readonly also: readonly string[];
  readonly run_time_s: number;
  readonly bytes_written: number;
  readonly bytes_read: number;
  readonly bytes_moved: number;
  readonly throughput_mib_s: number;
  readonly rank_io_s_min: number;
  readonly rank_io_s_median: number;
  readonly rank_io_s_max: number;
  readonly attempts: number;
  readonly jobid: number;
  /** The file system the workload's files lived on: `local-disk` (lab/logs) or `glusterfs` (lab/glusterfs, lab/pfs). */
  readonly fs: string;
  /**
   * A same-work pair's repetition (lab/sweep.json `pairs`, `run-sweep.mjs --pairs`): the pair's name, the run's role
   * (`problem` or its fixed `twin`: same program, ranks, layer, operation and bytes, the injected problem removed),
   * its repetition (1…), its batch (one pair's interleaved repetitions P, T, P, T …), whether the file-system check
   * before and after the batch passed (`ok`, `failed`: the batch is marked and not measured; `none`: not run), and
   * whether the twin moves the same bytes (false where the extra bytes are the problem: redundant reads and writes,
   * or the imbalanced share).
   */
  readonly pair?: { readonly name: string; readonly role: 'problem' | 'twin'; readonly rep: number; readonly batch: number; readonly check: 'ok' | 'failed' | 'none'; readonly sameBytes: boolean };
}

export interface LabManifest {
  readonly version: number;
  readonly runs: readonly LabRun[];
}

const VOCABULARY = new Set<string>(PROBLEMS);

function fail(where: string, what: string): never {
  throw new Error(`${where}: ${what}`);
}

function str(row: Record<string, unknown>, key: string, where: string): string {
  const v = row[key];
  if (typeof v !== 'string') fail(where, `${key} is not a string`);
  return v;
}

function num(row: Record<string, unknown>, key: string, where: string): number {
  const v = row[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(where, `${key} is not a number`);
  return v;
}

function tags(row: Record<string, unknown>, key: string, where: string, healthy: boolean): string[] {
  const v = row[key];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(where, `${key} is not a list of strings`);
  for (const t of v as string[]) if (!(VOCABULARY.has(t) || (healthy && t === 'healthy'))) fail(where, `${key}: '${t}' is not a problem of the report vocabulary`);
  return v as string[];
}

/** Reads and checks a lab manifest (JSON text): every row's labels come from the report vocabulary. */
export function parseLabManifest(text: string, source = 'MANIFEST.json'): LabManifest {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    fail(source, `not JSON (${(err as Error).message})`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray((doc as { runs?: unknown }).runs)) fail(source, 'no "runs" list');
  const version = (doc as { version?: unknown }).version;
  if (version !== 1) fail(source, `version ${String(version)} is not 1`);
  const runs: LabRun[] = [];
  const seen = new Set<string>();
  for (const [k, raw] of ((doc as { runs: unknown[] }).runs).entries()) {
    if (!raw || typeof raw !== 'object') fail(`${source} run ${k}`, 'not an object');
    const row = raw as Record<string, unknown>;
    const file = str(row, 'file', `${source} run ${k}`);
    const where = `${source} ${file}`;
    if (!/^[A-Za-z0-9._-]+\.darshan$/.test(file)) fail(where, 'file is not a plain .darshan name');
    if (seen.has(file)) fail(where, 'listed twice');
    seen.add(file);
    const labels = tags(row, 'labels', where, true);
    if (!labels.length || (labels.includes('healthy') && labels.length > 1)) fail(where, 'labels must be problems, or healthy alone');
    const params = row.params;
    if (!params || typeof params !== 'object') fail(where, 'params is not an object');
    runs.push({
      file,
      family: str(row, 'family', where),
      case: str(row, 'case', where),
      layer: str(row, 'layer', where),
      program: str(row, 'program', where),
      params: params as Record<string, string | number>,
      ranks: num(row, 'ranks', where),
      dxt: row.dxt === true,
      io: typeof row.io === 'string' ? row.io : '',
      labels,
      also: tags(row, 'also', where, false),
      run_time_s: num(row, 'run_time_s', where),
      bytes_written: num(row, 'bytes_written', where),
      bytes_read: num(row, 'bytes_read', where),
      bytes_moved: num(row, 'bytes_moved', where),
      throughput_mib_s: num(row, 'throughput_mib_s', where),
      rank_io_s_min: num(row, 'rank_io_s_min', where),
      rank_io_s_median: num(row, 'rank_io_s_median', where),
      rank_io_s_max: num(row, 'rank_io_s_max', where),
      attempts: num(row, 'attempts', where),
      jobid: num(row, 'jobid', where),
      fs: row.fs === undefined ? 'local-disk' : str(row, 'fs', where),
      ...(row.pair === undefined ? {} : { pair: pairOf(row.pair, where) }),
    });
  }
  return { version, runs };
}

function pairOf(v: unknown, where: string): NonNullable<LabRun['pair']> {
  if (!v || typeof v !== 'object') fail(where, 'pair is not an object');
  const p = v as Record<string, unknown>;
  const name = str(p, 'name', `${where} pair`);
  const role = p.role;
  if (role !== 'problem' && role !== 'twin') fail(where, `pair role ${String(role)} is not problem or twin`);
  const check = p.check;
  if (check !== 'ok' && check !== 'failed' && check !== 'none') fail(where, `pair check ${String(check)} is not ok, failed or none`);
  const rep = num(p, 'rep', `${where} pair`), batch = num(p, 'batch', `${where} pair`);
  if (!Number.isInteger(rep) || rep < 1) fail(where, `pair rep ${rep} is not a positive integer`);
  return { name, role, rep, batch, check, sameBytes: p.sameBytes !== false };
}

export function readLabManifest(path: string): LabManifest {
  return parseLabManifest(readFileSync(path, 'utf8'), path);
}

/** Whether a run was built healthy. */
export function isHealthy(r: Pick<LabRun, 'labels'>): boolean {
  return r.labels.length === 1 && r.labels[0] === 'healthy';
}
