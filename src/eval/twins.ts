import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareRuns, type RunInput } from '../compare/diff.js';
import { readRun } from '../compare/run.js';
import type { Cause } from '../contract/index.js';
import { isHealthy, readLabManifest, type LabRun } from '../lab/manifest.js';
import { parseManifest } from './manifest.js';

/** One problem run compared with its healthy twin (`iolens compare HEALTHY PROBLEM`). */
export interface TwinPair {
  /** `lab` or `shared` (the labelled generated logs). */
  readonly set: string;
  readonly healthy: string;
  readonly problem: string;
  readonly labels: readonly string[];
  /** The first-ranked cause (a finding), or null when no finding differs. */
  readonly first: { readonly code: string; readonly problem: string | null; readonly seconds: number } | null;
  /** Whether the first-ranked cause names an injected label. */
  readonly hit: boolean;
  /** problem − healthy run time, seconds (was the problem run slower?). */
  readonly timeDelta: number;
}

export interface TwinEvaluation {
  readonly pairs: readonly TwinPair[];
  /** Per set and in all: pairs, and pairs whose first-ranked cause is injected. */
  readonly totals: readonly { readonly set: string; readonly pairs: number; readonly firstIsCause: number }[];
}

/**
 * The lab's twin of a problem run: a healthy run of its family with the same rank count and API layer (the layer
 * alone, then any, when there is none), doing the same operation (`op`: write, read …), sharing the most workload
 * parameters, then with the same DXT setting; ties by file name. The operation comes before the shared parameters so
 * that a run of small writes is set beside a healthy writer, not a healthy reader with the same rank count.
 */
export function labTwin(runs: readonly LabRun[], p: LabRun): LabRun | null {
  const healthy = runs.filter((h) => isHealthy(h) && h.family === p.family);
  if (!healthy.length) return null;
  const place = (h: LabRun) => (h.ranks === p.ranks && h.layer === p.layer ? 2 : h.layer === p.layer ? 1 : 0);
  const sameOp = (h: LabRun) => (h.params.op === p.params.op ? 1 : 0);
  const shared = (h: LabRun) => Object.entries(p.params).filter(([k, v]) => k !== 'seed' && h.params[k] === v).length;
  const sameDxt = (h: LabRun) => (h.dxt === p.dxt ? 1 : 0);
  return [...healthy].sort((a, b) => place(b) - place(a) || sameOp(b) - sameOp(a) || shared(b) - shared(a) || sameDxt(b) - sameDxt(a) || a.file.localeCompare(b.file))[0];
}

function firstFinding(causes: readonly Cause[]): Cause | null {
  return causes.find((c) => c.kind === 'finding') ?? null;
}

/**
 * Compares every problem run with its healthy twin, in the lab (`labDir`, MANIFEST.json) and in a directory of
 * labelled logs whose MANIFEST.md names each problem log's twin ("pairs with"), and counts the pairs whose
 * first-ranked cause is an injected label. Each log is read once.
 */
export async function evaluateTwins(dirs: { lab?: string; shared?: string }): Promise<TwinEvaluation> {
  const cache = new Map<string, RunInput>();
  const run = async (path: string, name: string) => {
    let r = cache.get(path);
    if (!r) cache.set(path, (r = await readRun(path, name)));
    return r;
  };
  const pairs: TwinPair[] = [];
  const judge = async (set: string, dir: string, healthy: string, problem: string, labels: readonly string[]) => {
    const h = await run(join(dir, healthy), healthy), p = await run(join(dir, problem), problem);
    const c = compareRuns(h, [p], 'eval');
    const first = firstFinding(c.others[0].causes);
    pairs.push({
      set,
      healthy,
      problem,
      labels,
      first: first ? { code: first.code, problem: first.problem, seconds: first.seconds ?? 0 } : null,
      hit: !!first?.problem && labels.includes(first.problem),
      timeDelta: c.others[0].timeDelta,
    });
  };
  if (dirs.lab) {
    const runs = readLabManifest(join(dirs.lab, 'MANIFEST.json')).runs.filter((r) => existsSync(join(dirs.lab!, 'logs', r.file)));
    for (const p of runs) {
      if (isHealthy(p)) continue;
      const h = labTwin(runs, p);
      if (h) await judge('lab', join(dirs.lab, 'logs'), h.file, p.file, p.labels);
    }
  }
  if (dirs.shared) {
    const m = parseManifest(readFileSync(join(dirs.shared, 'MANIFEST.md'), 'utf8'));
    for (const l of m.logs) {
      if (l.healthy || !l.twin || !l.labels.length) continue;
      if (!existsSync(join(dirs.shared, l.file)) || !existsSync(join(dirs.shared, l.twin))) continue;
      await judge('shared', dirs.shared, l.twin, l.file, l.labels);
    }
  }
  const sets = [...new Set(pairs.map((p) => p.set)), 'all'];
  const totals = sets.map((set) => {
    const ps = set === 'all' ? pairs : pairs.filter((p) => p.set === set);
    return { set, pairs: ps.length, firstIsCause: ps.filter((p) => p.hit).length };
  });
  return { pairs, totals };
}

/** The twin evaluation as text: totals per set, then the pairs (those whose first cause is not injected, or all). */
export function formatTwins(e: TwinEvaluation, opts: { all?: boolean } = {}): string {
  const o: string[] = ['Problem runs compared with their healthy twins: is the first-ranked cause an injected problem?', ''];
  o.push(`${'set'.padEnd(8)} ${'pairs'.padStart(6)} ${'first = injected'.padStart(17)}`);
  for (const t of e.totals) o.push(`${t.set.padEnd(8)} ${String(t.pairs).padStart(6)} ${`${t.firstIsCause} (${t.pairs ? ((100 * t.firstIsCause) / t.pairs).toFixed(1) : '0.0'} %)`.padStart(17)}`);
  const shown = opts.all ? e.pairs : e.pairs.filter((p) => !p.hit);
  o.push('', opts.all ? 'Every pair (healthy → problem: labels; first-ranked cause, seconds):' : 'Pairs whose first-ranked cause is not injected (healthy → problem: labels; first-ranked cause, seconds):');
  for (const p of shown) {
    const first = p.first ? `${p.first.code} ${p.first.problem ?? ''} ${p.first.seconds >= 0 ? '+' : ''}${p.first.seconds.toPrecision(3)} s` : 'no finding differs';
    o.push(`${p.hit ? '  ' : '✗ '}[${p.set}] ${p.healthy} → ${p.problem}: ${p.labels.join(', ')}; ${first}`);
  }
  return `${o.join('\n')}\n`;
}
