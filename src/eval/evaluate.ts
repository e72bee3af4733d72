import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnoseLog } from '../pipeline/diagnose.js';
import type { ReportConfig } from '../config/load.js';
import { parseManifest, type Manifest } from './manifest.js';
import { judge, labelRows, scoredFindings, type Judgement, type LabelRow, type Labelled } from './score.js';

/** One log's outcome (scoring of score.ts; the shared logs have no side effects). */
export interface LogResult extends Omit<Judgement, 'accepted' | 'unlabelledWarn'> {
  readonly file: string;
  readonly labels: readonly string[];
  readonly healthy: boolean;
  /** Set when the log could not be analysed. */
  readonly error?: string;
}

export type { LabelRow };

export interface Evaluation {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly logs: readonly LogResult[];
  readonly labels: readonly LabelRow[];
  readonly totals: {
    readonly logs: number;
    readonly healthy: number;
    readonly labels: number;
    readonly hits: number;
    readonly misses: number;
    readonly falseAlarms: number;
    readonly highOnHealthy: number;
    /** Problem logs, and those whose first-ranked finding names one of their labels. */
    readonly problemLogs: number;
    readonly firstIsCause: number;
  };
  /** Logs listed in the MANIFEST but absent from the directory. */
  readonly missingLogs: readonly string[];
}

/**
 * Runs the default-mode report on every log of `dir` listed in its MANIFEST.md and compares the problem tags of the
 * HIGH/WARN insights with the EXPECTED labels.
 */
export function evaluateDirectory(dir: string, config?: ReportConfig): Evaluation {
  const mf = join(dir, 'MANIFEST.md');
  if (!existsSync(mf)) throw new Error(`${dir} has no MANIFEST.md`);
  const manifest = parseManifest(readFileSync(mf, 'utf8'));
  const logs: LogResult[] = [];
  const judged: { run: Labelled; j: Judgement }[] = [];
  const missingLogs: string[] = [];
  for (const l of manifest.logs) {
    const path = join(dir, l.file);
    if (!existsSync(path)) {
      missingLogs.push(l.file);
      continue;
    }
    try {
      const report = diagnoseLog(path, { mode: 'default', logName: l.file, snippets: false, ...(config ? { config } : {}) });
      const { found, hits, misses, falseAlarms, first } = judge({ ...l, also: [] }, scoredFindings(report.insights));
      judged.push({ run: { ...l, also: [] }, j: { found, hits, misses, falseAlarms, accepted: [], unlabelledWarn: [], first } });
      logs.push({ file: l.file, labels: l.labels, healthy: l.healthy, found, hits, misses, falseAlarms, first });
    } catch (err) {
      logs.push({ file: l.file, labels: l.labels, healthy: l.healthy, found: [], hits: [], misses: [...l.labels], falseAlarms: [], first: null, error: (err as Error).message });
      judged.push({ run: { ...l, also: [] }, j: { found: [], hits: [], misses: [...l.labels], falseAlarms: [], accepted: [], unlabelledWarn: [], first: null } });
    }
  }
  const labels = labelRows(manifest.vocabulary, judged);
  const totals = {
    logs: logs.length,
    healthy: logs.filter((r) => r.healthy).length,
    labels: labels.reduce((n, r) => n + r.logs, 0),
    hits: labels.reduce((n, r) => n + r.hits, 0),
    misses: labels.reduce((n, r) => n + r.misses, 0),
    falseAlarms: logs.reduce((n, r) => n + r.falseAlarms.length, 0),
    highOnHealthy: logs.filter((r) => r.healthy).reduce((n, r) => n + r.falseAlarms.length, 0),
    problemLogs: logs.filter((r) => !r.healthy && r.labels.length > 0).length,
    firstIsCause: logs.filter((r) => !r.healthy && r.first?.cause).length,
  };
  return { dir, manifest, logs, labels, totals, missingLogs };
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/** The evaluation as plain-text tables (per label, per log, totals). Log-derived names are printed as is: they come from the MANIFEST, a trusted file of the repository's data set. */
export function formatEvaluation(e: Evaluation, dirLabel: string = e.dir): string {
  const o: string[] = [];
  o.push(`Evaluation of ${dirLabel} (default mode; HIGH/WARN insights vs EXPECTED labels)`, '');
  o.push(`${pad('label', 20)} ${pad('logs', 5)} ${pad('hits', 5)} ${pad('misses', 7)} false alarms`);
  for (const r of e.labels) o.push(`${pad(r.label, 20)} ${pad(String(r.logs), 5)} ${pad(String(r.hits), 5)} ${pad(String(r.misses), 7)} ${r.falseAlarms}`);
  o.push('');
  for (const r of e.logs) {
    const exp = r.healthy ? 'healthy' : r.labels.join(', ');
    const found = r.found.map((f) => `${f.problem}:${f.level}`).join(', ') || '-';
    const notFirst = !r.healthy && r.labels.length > 0 && r.first && !r.first.cause ? `FIRST ${r.first.problem} (${r.first.code})` : '';
    const extra = [r.misses.length ? `MISSED ${r.misses.join(', ')}` : '', r.falseAlarms.length ? `FALSE ${r.falseAlarms.map((f) => `${f.problem} (${f.code})`).join(', ')}` : '', notFirst, r.error ? `ERROR ${r.error}` : ''].filter(Boolean).join('; ');
    o.push(`${r.misses.length || r.falseAlarms.length || r.error ? '✗' : '✓'} ${pad(r.file, 46)} expected: ${exp} | found: ${found}${extra ? ` | ${extra}` : ''}`);
  }
  const t = e.totals;
  o.push('', `Totals: ${t.logs} logs (${t.healthy} healthy), ${t.labels} labels: ${t.hits} hits, ${t.misses} misses, ${t.falseAlarms} false alarms (${t.highOnHealthy} HIGH on healthy logs); the first-ranked finding names an injected cause on ${t.firstIsCause} of ${t.problemLogs} problem logs`);
  if (e.missingLogs.length) o.push(`Listed in MANIFEST.md but absent: ${e.missingLogs.join(', ')}`);
  return o.join('\n') + '\n';
}
