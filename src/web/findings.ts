import type { Report } from '../contract/index.js';
import { formatBytes, formatSeconds } from '../text/format.js';
import { breakdownLines, costText, ioTimeText, savingsText } from '../render/text.js';
import { el, kv } from './dom.js';

/** The job banner: identity, run time, I/O. */
export function banner(report: Report): HTMLElement {
  const j = report.job;
  return kv([
    ['Log', j.logName],
    ['Job id', j.jobId || '—'],
    ['Executable', j.exe || '—'],
    ['Command', j.command || '—'],
    ['Start', j.startTime.iso || '—'],
    ['Run time', formatSeconds(j.durationSeconds)],
    ['Processes', String(j.processes)],
    ['Files', `${j.files.total} (POSIX ${j.files.posix}, MPI-IO ${j.files.mpiio}, STDIO ${j.files.stdio})`],
    ['I/O time', ioTimeText(report.io)],
    ['Bytes', formatBytes(report.io.bytes)],
    ['Modules', j.modules.join(', ')],
    ['Data', report.completeness.complete ? 'complete' : report.completeness.modules.map((m) => `${m.module}: ${m.status} (${m.detail})`).join('; ')],
  ]);
}

/** Where the time went: the verdict and the breakdown of the I/O time (the report's time model). */
export function verdictSection(report: Report): HTMLElement | null {
  if (!report.verdict) return null;
  const parts = breakdownLines(report.io);
  return el('section', { class: 'verdict' }, el('h2', {}, 'Where the time went'), el('p', { class: 'verdict-text' }, report.verdict.text), parts.length ? el('ul', {}, ...parts.map((l) => el('li', {}, l))) : null);
}

/** Findings in report order (what fixing saves, most first), each with its cost, savings, details and recommendations. */
export function findings(report: Report): HTMLElement {
  const s = report.summary;
  const list = el('ol', { class: 'findings' });
  for (const i of report.insights) {
    const details = i.details.slice(0, 10).map((d) => el('li', {}, d.message));
    const hidden = i.details.length - details.length + (i.detailsOmitted ?? 0);
    const more = hidden > 0 ? el('li', { class: 'muted' }, `… ${hidden} more`) : null;
    list.append(
      el(
        'li',
        { class: 'finding', 'data-code': i.code, 'data-level': i.level },
        el('span', { class: `level ${i.level}` }, i.level),
        ' ',
        el('code', {}, i.code),
        ' ',
        i.message,
        i.cost ? el('div', { class: 'muted' }, `Cost: ${costText(report, i)}`) : null,
        i.savings ? el('div', { class: 'muted' }, `Fixing it would save ${savingsText(report, i)}`) : null,
        ...(i.caveats ?? []).map((c) => el('div', { class: 'muted' }, `Caveat: ${c}`)),
        details.length ? el('ul', {}, ...details, more) : null,
        i.recommendations.length ? el('ul', { class: 'recs' }, ...i.recommendations.map((r) => el('li', {}, r.text))) : null,
      ),
    );
  }
  return el(
    'section',
    {},
    el('h2', {}, 'Findings'),
    el('p', {}, `${s.high} high, ${s.warn} warnings, ${s.ok} ok, ${s.info} info; ${s.recommendations} recommendations`),
    report.insights.length ? list : el('p', {}, 'No findings.'),
    report.notes.length ? el('details', {}, el('summary', {}, 'Notes'), el('ul', {}, ...report.notes.map((n) => el('li', {}, n)))) : null,
  );
}
