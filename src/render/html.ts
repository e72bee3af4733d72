import type { Report } from '../contract/index.js';
import { escapeHtml as H } from '../text/escape.js';
import { type RenderOptions } from './options.js';
import { PLOTS_CSS, plotsSection } from './html-plots.js';
import { bannerRows, breakdownLines, costText, detailText, savingsText, summaryLine, thresholdValue } from './text.js';

const CSS = `body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222;background:#fff}
h1{font-size:1.4em}section{border:1px solid #ccc;border-radius:6px;padding:.5em 1em;margin:1em 0}
h2{font-size:1.1em;margin:.3em 0}table{border-collapse:collapse}td,th{padding:.15em .8em;text-align:left;vertical-align:top}
.HIGH{color:#b00020;font-weight:600}.WARN{color:#b35900;font-weight:600}.OK{color:#1b7f3b}.INFO{color:#333}
.code{font-family:monospace;background:#eee;padding:0 .3em;border-radius:3px}ul{margin:.2em 0}
pre{background:#f6f6f6;padding:.6em;overflow:auto}.rec{color:#444}.note{color:#666}.cost,.docs{margin:.2em 0;color:#555;font-size:.92em}`;

/** A self-contained HTML page (inline CSS, no scripts, no external resources). Every log string is escaped. */
export function renderHtml(report: Report, opts: RenderOptions = {}): string {
  const o: string[] = [];
  o.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">', `<title>IOLens report ${H(report.job.logName || report.job.jobId)}</title>`, `<style>${CSS}\n${PLOTS_CSS}</style></head><body>`);
  o.push(`<h1>IOLens report — ${H(report.job.logName || report.job.jobId)}${report.mode === 'drishti' ? ' (Drishti mode)' : ''}</h1>`);
  o.push('<section><table>');
  for (const [k, v] of bannerRows(report)) o.push(`<tr><th>${k}</th><td>${H(v)}</td></tr>`);
  o.push(`</table><p><strong>${H(summaryLine(report))}</strong></p></section>`);
  if (report.verdict) {
    o.push(`<section class="verdict"><h2>Where the time went</h2><p><strong>${H(report.verdict.text)}</strong></p>`);
    const parts = breakdownLines(report.io);
    if (parts.length) o.push('<ul>' + parts.map((l) => `<li>${H(l)}</li>`).join('') + '</ul>');
    o.push('</section>');
  }
  // Drishti's panels; the default mode's one list, the most seconds saved first.
  const groups = report.mode === 'drishti' ? (['METADATA', 'OPERATIONS'] as const).map((p) => ({ title: p, ins: report.insights.filter((i) => i.panel === p) })) : [{ title: 'Findings, most seconds saved first', ins: report.insights }];
  for (const { title, ins } of groups) {
    if (!ins.length) continue;
    o.push(`<section><h2>${title}</h2><ul>`);
    for (const i of ins) {
      o.push(`<li><span class="${i.level}">${i.level}</span> <span class="code">${i.code}</span> ${H(i.message)}`);
      const cost = report.mode === 'drishti' ? null : costText(report, i);
      const saves = report.mode === 'drishti' ? null : savingsText(report, i);
      const notes = [...(cost ? [`Cost: ${cost}`] : []), ...(saves ? [`Fixing it would save ${saves}`] : []), ...(i.caveats ?? []).map((c) => `Caveat: ${c}`)];
      if (notes.length) o.push(`<p class="cost">${notes.map((n) => H(n)).join('<br>')}</p>`);
      if (i.docs && report.mode !== 'drishti') o.push(`<p class="docs">About this check: <code>${H(i.docs)}</code> (or <code>iolens list-checks ${H(i.code)}</code>)</p>`);
      const more = i.detailsOmitted ? `<li>… and ${i.detailsOmitted} more</li>` : '';
      if (i.details.length) o.push('<ul>' + i.details.map((d) => `<li>${H(detailText(report, d, !!opts.fullPath))}</li>`).join('') + more + '</ul>');
      if (!opts.issuesOnly && i.recommendations.length) {
        o.push('<ul class="rec">');
        for (const r of i.recommendations) {
          const s = r.snippet && report.snippets?.[r.snippet];
          o.push(`<li>${H(r.text)}${s ? `<details><summary>example: ${H(r.snippet!)}</summary><pre>${H(s.text)}</pre></details>` : ''}</li>`);
        }
        o.push('</ul>');
      }
      o.push('</li>');
    }
    o.push('</ul></section>');
  }
  const plots = plotsSection(report);
  if (plots) o.push(plots);
  const rows = report.thresholds.filter((t) => opts.allThresholds || t.triggered);
  o.push('<section><h2>THRESHOLDS</h2><table>');
  for (const t of rows) o.push(`<tr><td>${H(t.label)}</td><td class="code">${t.knob}</td><td>${H(thresholdValue(t.value, t.unit))}</td></tr>`);
  o.push('</table></section>');
  if (report.notes.length) o.push('<section><h2>Notes</h2><ul>' + report.notes.map((n) => `<li class="note">${H(n)}</li>`).join('') + '</ul></section>');
  o.push('</body></html>', '');
  return o.join('\n');
}
