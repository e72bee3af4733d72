import type { Report } from '../contract/index.js';
import { escapeMarkdown as M } from '../text/escape.js';
import { DEFAULT_MAX_DETAILS, type RenderOptions } from './options.js';
import { bannerRows, breakdownLines, costText, detailText, savingsText, summaryLine, thresholdValue } from './text.js';

const ICON = { HIGH: '🔴 HIGH', WARN: '🟠 WARN', OK: '🟢 OK', INFO: 'ℹ️ INFO' } as const;

/** Markdown report (for issues, pull requests, wikis). Every string from the log is escaped. */
export function renderMarkdown(report: Report, opts: RenderOptions = {}): string {
  const out: string[] = [];
  const max = opts.maxDetails ?? DEFAULT_MAX_DETAILS;
  out.push(`# I/O report: ${M(report.job.logName || report.job.jobId)}`, '');
  out.push('| | |', '|---|---|');
  for (const [k, v] of bannerRows(report)) out.push(`| ${k} | ${M(v)} |`);
  out.push('', `**${summaryLine(report)}**`, '');
  if (report.verdict) {
    out.push('## Where the time went', '', M(report.verdict.text), '');
    for (const l of breakdownLines(report.io)) out.push(`- ${M(l)}`);
    out.push('');
  }
  // Drishti's panels; the default mode's one list, the most seconds saved first.
  const groups = report.mode === 'drishti' ? (['METADATA', 'OPERATIONS'] as const).map((p) => ({ title: p, ins: report.insights.filter((i) => i.panel === p) })) : [{ title: 'Findings, most seconds saved first', ins: report.insights }];
  for (const { title, ins } of groups) {
    if (!ins.length) continue;
    out.push(`## ${title}`, '');
    for (const i of ins) {
      out.push(`- ${ICON[i.level]}${opts.showCodes !== false ? ` **${i.code}**` : ''} ${M(i.message)}`);
      const cost = report.mode === 'drishti' ? null : costText(report, i);
      if (cost) out.push(`  - Cost: ${M(cost)}`);
      const saves = report.mode === 'drishti' ? null : savingsText(report, i);
      if (saves) out.push(`  - Fixing it would save ${M(saves)}`);
      for (const c of i.caveats ?? []) out.push(`  - ⚠️ ${M(c)}`);
      const shown = i.details.slice(0, max);
      for (const d of shown) out.push(`  - ${M(detailText(report, d, !!opts.fullPath))}`);
      const more = i.details.length - shown.length + (i.detailsOmitted ?? 0);
      if (more > 0) out.push(`  - … and ${more} more`);
      if (!opts.issuesOnly) {
        for (const r of i.recommendations) {
          out.push(`  - 💡 ${M(r.text)}`);
          const s = r.snippet && report.snippets?.[r.snippet];
          if (opts.verbose && s) out.push('', '    ```' + s.language, ...s.text.replace(/\n$/, '').split('\n').map((l) => `    ${l}`), '    ```', '');
        }
      }
    }
    out.push('');
  }
  const rows = report.thresholds.filter((t) => opts.allThresholds || t.triggered);
  if (rows.length) {
    out.push('## THRESHOLDS', '', '| threshold | knob | value |', '|---|---|---|');
    for (const t of rows) out.push(`| ${t.label} | \`${t.knob}\` | ${thresholdValue(t.value, t.unit)} |`);
    out.push('');
  }
  if (report.notes.length) out.push('## Notes', '', ...report.notes.map((n) => `- ${M(n)}`), '');
  return out.join('\n');
}
