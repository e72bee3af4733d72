import type { LearnedProblem, LearnedSection, Report } from '../contract/index.js';
import { escapeCsv, escapeHtml, escapeMarkdown } from '../text/escape.js';

/**
 * The learned-diagnosis block of every renderer (a report made with `iolens report LOG --model M`): one list of
 * lines built here, which the terminal, HTML and Markdown renderers lay out, and the CSV columns. Every text comes
 * from the report; strings from the log are escaped by each format.
 */

/** One line of the block: a heading, a sentence, or an item of a list. */
export interface LearnedLine {
  readonly text: string;
  readonly kind: 'summary' | 'warning' | 'heading' | 'cost' | 'gain' | 'match' | 'note' | 'footer';
}

function problemText(p: LearnedProblem, what: 'findings' | 'features' | 'both'): string {
  const f = p.findings.join(', ');
  const x = p.features.join(', ');
  if (what === 'findings') return `${p.problem} (${f})`;
  if (what === 'features') return `${p.problem} (from ${x})`;
  return `${p.problem}: findings ${f}; blamed ${x}`;
}

/** The block's title: the model and how good it was on validation. */
export function learnedTitle(l: LearnedSection): string {
  const v = l.model.validation;
  return `model ${l.model.file}: ${l.model.rows.toLocaleString('en-US')} jobs of ${l.model.table}, validation R²(log) ${v.r2.toFixed(2)}, median error ×${v.medianErrorFactor.toFixed(2)}`;
}

/** The block's lines, in display order. */
export function learnedLines(l: LearnedSection): LearnedLine[] {
  const out: LearnedLine[] = [{ text: l.summary, kind: 'summary' }];
  if (l.ood) out.push({ text: `Out of distribution: ${l.oodReasons.join('; ')}`, kind: 'warning' });
  const costs = l.contributors.filter((c) => c.shap < 0);
  const gains = l.contributors.filter((c) => c.shap > 0);
  if (costs.length) out.push({ text: `Largest costs (SHAP, against ${l.baseline === 'zero' ? 'a job with no I/O' : 'the training data'}):`, kind: 'heading' }, ...costs.map((c) => ({ text: c.text, kind: 'cost' as const })));
  if (gains.length) out.push({ text: 'Largest gains:', kind: 'heading' }, ...gains.map((c) => ({ text: c.text, kind: 'gain' as const })));
  if (l.corroborated.length) out.push({ text: 'The blame corroborates:', kind: 'heading' }, ...l.corroborated.map((p) => ({ text: problemText(p, 'both'), kind: 'match' as const })));
  if (l.modelOnly.length) out.push({ text: 'Blamed by the model, found by no check:', kind: 'heading' }, ...l.modelOnly.map((p) => ({ text: problemText(p, 'features'), kind: 'note' as const })));
  if (l.findingsOnly.length) out.push({ text: 'Found by checks, not blamed by the model:', kind: 'heading' }, ...l.findingsOnly.map((p) => ({ text: problemText(p, 'findings'), kind: 'note' as const })));
  if (l.baseline === 'zero') out.push({ text: `base ${l.base.toFixed(3)} + Σ SHAP = ${l.output.toFixed(3)} = log10(1 + predicted); zero counters get no blame`, kind: 'footer' });
  return out;
}

/** HTML: a section of its own (the caller escapes nothing; every text is escaped here). */
export function learnedHtml(report: Report): string {
  const l = report.learned;
  if (!l) return '';
  const o: string[] = [`<section class="learned"><h2>LEARNED DIAGNOSIS</h2><p class="note">${escapeHtml(learnedTitle(l))}</p>`];
  let open = false;
  for (const line of learnedLines(l)) {
    const t = escapeHtml(line.text);
    if (line.kind === 'heading') {
      if (open) o.push('</ul>');
      o.push(`<p><strong>${t}</strong></p><ul>`);
      open = true;
    } else if (line.kind === 'summary') o.push(`<p><strong>${t}</strong></p>`);
    else if (line.kind === 'footer') {
      if (open) o.push('</ul>');
      open = false;
      o.push(`<p class="note">${t}</p>`);
    }
    else if (line.kind === 'warning') o.push(`<p class="WARN">${t}</p>`);
    else if (open) o.push(`<li class="${line.kind}">${t}</li>`);
    else o.push(`<p class="note">${t}</p>`);
  }
  if (open) o.push('</ul>');
  o.push('</section>');
  return o.join('\n');
}

/** Markdown lines of the block. */
export function learnedMarkdown(report: Report): string[] {
  const l = report.learned;
  if (!l) return [];
  const out = ['## LEARNED DIAGNOSIS', '', `_${escapeMarkdown(learnedTitle(l))}_`, ''];
  for (const line of learnedLines(l)) {
    const t = escapeMarkdown(line.text);
    if (line.kind === 'heading') out.push('', `**${t}**`, '');
    else if (line.kind === 'summary') out.push(`**${t}**`);
    else if (line.kind === 'warning') out.push(`⚠️ ${t}`);
    else if (line.kind === 'footer') out.push('', `_${t}_`);
    else out.push(`- ${t}`);
  }
  out.push('');
  return out;
}

/** CSV columns a report with a learned section adds after the checks. */
export const LEARNED_CSV_COLUMNS = ['predicted', 'low', 'high', 'measured', 'ood', 'top_cost', 'corroborated'] as const;

/** The CSV cells of those columns (empty when the report has no learned section). */
export function learnedCsvCells(report: Report): string[] {
  const l = report.learned;
  if (!l) return LEARNED_CSV_COLUMNS.map(() => '');
  const cost = l.contributors.find((c) => c.shap < 0);
  const num = (v: number | null) => (v === null || !Number.isFinite(v) ? '' : String(v));
  return [num(l.predicted), num(l.low), num(l.high), num(l.measured), l.ood ? 'True' : 'False', cost ? cost.feature : '', l.corroborated.map((p) => p.problem).join(' ')].map(escapeCsv);
}
