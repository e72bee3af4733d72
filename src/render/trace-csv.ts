import { TRACE_DIMS, TRACE_METRICS, type Report } from '../contract/index.js';
import { escapeCsv } from '../text/escape.js';

/**
 * A trace report as CSV: one row per listed flagged record — its view, key columns (`time` as `window`), level,
 * metric badness and value, every metric column, and the codes and messages of the findings that name it.
 */
export function renderTraceCsv(report: Report): string {
  const t = report.trace;
  if (!t) throw new Error('renderTraceCsv needs a trace report');
  const header = ['view', ...TRACE_DIMS.map((d) => (d === 'time' ? 'window' : d)), 'level', 'badness', `value_${t.severity.metric}`, ...TRACE_METRICS, 'findings', 'messages'];
  const lines = [header.join(',')];
  for (const v of t.views) {
    const named = new Map<string, { code: string; message: string }[]>();
    for (const f of report.insights) {
      for (const d of f.details) {
        if (d.subject.kind !== 'record' || d.subject.view !== v.name) continue;
        const k = JSON.stringify(d.subject.key);
        named.set(k, [...(named.get(k) ?? []), { code: f.code, message: d.message }]);
      }
    }
    for (const b of v.top) {
      const by = named.get(JSON.stringify(b.key)) ?? [];
      const row: (string | number)[] = [v.name, ...TRACE_DIMS.map((d) => b.key[d] ?? ''), b.level, b.score.badness, b.score.value, ...TRACE_METRICS.map((m) => b.metrics[m])];
      row.push(by.map((x) => x.code).join(';'), by.map((x) => x.message).join('; '));
      lines.push(row.map(escapeCsv).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}
