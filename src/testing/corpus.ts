import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (dist/testing/ → ../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The shared read-only data folder beside the repository. */
export const SHARED = resolve(REPO_ROOT, '..', 'shared');

export interface CorpusLog {
  /** File name, e.g. `ior-seq-write-1m.darshan`. */
  readonly name: string;
  readonly path: string;
  /** Path without `.darshan`: stored outputs sit beside it as `<base>.parser.txt.gz` and so on. */
  readonly base: string;
  /** `generated`, `public` or `traces/<folder>`. */
  readonly set: string;
}

/** Every Darshan log of the shared corpus: generated, public, and the DXT sample folders. */
export function corpusLogs(): CorpusLog[] {
  const dirs: [string, string][] = [
    ['generated', join(SHARED, 'darshan-logs', 'generated')],
    ['public', join(SHARED, 'darshan-logs', 'public')],
  ];
  const traces = join(SHARED, 'traces', 'darshan');
  if (existsSync(traces)) for (const d of readdirSync(traces).sort()) dirs.push([`traces/${d}`, join(traces, d)]);
  const out: CorpusLog[] = [];
  for (const [set, dir] of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.darshan')) continue;
      out.push({ name: f, path: join(dir, f), base: join(dir, f.slice(0, -'.darshan'.length)), set });
    }
  }
  return out;
}

/** Rows of the public MANIFEST's log table, by file name: the `problems` column says where darshan-util failed. */
export function publicManifestProblems(): Map<string, string> {
  const p = join(SHARED, 'darshan-logs', 'public', 'MANIFEST.md');
  const out = new Map<string, string>();
  if (!existsSync(p)) return out;
  for (const line of readFileSync(p, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length >= 12 && cells[1].endsWith('.darshan')) out.set(cells[1], cells[11]);
  }
  return out;
}
