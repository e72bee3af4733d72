import type { DarshanLog } from '../formats/darshan/index.js';
import { computePerf } from '../formats/darshan/perf.js';

/**
 * Per-log analyses beyond the reader: Darshan's performance estimates (`darshan-parser --perf`) and the
 * default-mode report's insights (code, level, problem tag). IOLENS_STORE_BASE_ONLY=1 skips both (then those
 * columns stay NULL and `jobs.analysis` is ["base"]).
 */
export interface PerfEntry {
  module: string;
  [field: string]: unknown;
}

export interface InsightEntry {
  code: string;
  level: string;
  problem?: string | null;
}

export interface Analyzers {
  perf: ((log: DarshanLog) => PerfEntry[]) | null;
  report: ((log: DarshanLog) => InsightEntry[]) | null;
}

function normalisePerf(out: unknown): PerfEntry[] {
  if (Array.isArray(out)) return out.filter((e) => e && typeof e === 'object' && typeof (e as PerfEntry).module === 'string') as PerfEntry[];
  if (out && typeof out === 'object') {
    const o = out as Record<string, unknown>;
    if (Array.isArray(o.modules)) return normalisePerf(o.modules);
    return Object.entries(o)
      .filter(([, v]) => v && typeof v === 'object')
      .map(([k, v]) => ({ module: k, ...(v as Record<string, unknown>) }));
  }
  return [];
}

function normaliseInsights(out: unknown): InsightEntry[] {
  const list = out && typeof out === 'object' && Array.isArray((out as { insights?: unknown }).insights) ? (out as { insights: unknown[] }).insights : [];
  const res: InsightEntry[] = [];
  for (const i of list) {
    if (!i || typeof i !== 'object') continue;
    const x = i as Record<string, unknown>;
    const code = typeof x.code === 'string' ? x.code : typeof x.id === 'string' ? x.id : null;
    if (!code) continue;
    const level = typeof x.level === 'string' ? x.level : typeof x.severity === 'string' ? x.severity : 'info';
    const problem = typeof x.problem === 'string' ? x.problem : null;
    res.push({ code, level, problem });
  }
  return res;
}

let cached: Promise<Analyzers> | null = null;

/** Finds the optional analyses in this build (once per thread). Set IOLENS_STORE_BASE_ONLY=1 to skip them. */
export function loadAnalyzers(): Promise<Analyzers> {
  if (!cached) cached = findAnalyzers();
  return cached;
}

async function findAnalyzers(): Promise<Analyzers> {
  const out: Analyzers = { perf: null, report: null };
  if (process.env.IOLENS_STORE_BASE_ONLY === '1') return out;
  out.perf = (log) => normalisePerf(computePerf(log));
  if (process.env.IOLENS_STORE_SKIP_REPORT !== '1') {
    // Loaded lazily: `query`, `summary` and `--no-report` ingests never load the report code, and a report module
    // that fails to load marks each row (analysis_errors) instead of stopping the ingest.
    try {
      const { buildReport } = await import('../report/index.js');
      out.report = (log) => normaliseInsights(buildReport(log, { mode: 'default' }));
    } catch (err) {
      const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
      out.report = () => {
        throw new Error(`report module failed to load: ${msg}`);
      };
    }
  }
  return out;
}
