import { DIMS } from '../views.js';
import { METRIC_COLUMNS } from '../views.js';
import type { TraceReport } from '../report.js';
import { escapeCsv } from '../../text/escape.js';

/** One CSV row per listed bottleneck: view, key columns, severity, score, every metric, reasons (`; `-joined). */
export function renderCsv(report: TraceReport, emit: (text: string) => void): void {
  const keyCols = DIMS.map((d) => (d === 'time' ? 'window' : d));
  const header = ['view', ...keyCols, 'severity', 'score', `value_${report.severity.metric}`, ...METRIC_COLUMNS, 'reason_rules', 'reasons'];
  emit(`${header.join(',')}\n`);
  for (const v of report.views) {
    for (const b of v.top) {
      const row: (string | number)[] = [v.name];
      for (const d of DIMS) row.push(b.key[d] ?? '');
      row.push(b.severity, b.score, b.value);
      for (const m of METRIC_COLUMNS) row.push(b.metrics[m]);
      row.push(b.reasons.map((r) => r.rule).join(';'), b.reasons.map((r) => r.message).join('; '));
      emit(`${row.map(escapeCsv).join(',')}\n`);
    }
  }
}
