import { upgradeReport, type Report } from '../contract/index.js';
import { formatBytes, formatCount, formatPercent, formatSeconds } from '../text/format.js';
import { api, el, errorBox, kv, main } from './dom.js';
import { banner, findings, verdictSection } from './findings.js';
import { plotsSection } from './job.js';

/** The trace report's views: per view its records, bottlenecks by level, and the flagged records. */
function views(report: Report): HTMLElement | null {
  const t = report.trace;
  if (!t) return null;
  const c = t.characteristics;
  return el(
    'section',
    { id: 'views' },
    el('h2', {}, 'The trace from every perspective'),
    kv([
      ['Traced span', formatSeconds(c.runtime)],
      ['Time in the analysed calls', `${formatSeconds(c.ioTime)} summed over calls`],
      ['Calls', `${formatCount(c.ops)} of ${formatCount(c.eventsTotal)} events`],
      ['Bytes', formatBytes(c.bytes)],
      ['Processes / files / hosts', `${c.processes} / ${c.files} / ${c.hosts}`],
      ['Severity', `${t.severity.metric}: ${t.severity.description}`],
      ['Explained bottlenecks', `${t.coverage.explained} of ${t.coverage.bottlenecks} (${formatPercent(t.coverage.share)})`],
    ]),
    ...t.views.map((v) =>
      el(
        'details',
        { class: 'view', 'data-view': v.name, open: v.bottlenecks > 0 },
        el('summary', {}, `${v.name}: ${formatCount(v.records)} records, ${v.bottlenecks} flagged (${Object.entries(v.byLevel).filter(([, n]) => n > 0).map(([l, n]) => `${n} ${l}`).join(', ') || 'none'})`),
        v.top.length
          ? el(
              'table',
              { class: 'jobs' },
              el('thead', {}, el('tr', {}, ...v.dims.map((d) => el('th', {}, d)), el('th', {}, 'level'), el('th', {}, v.top[0].score.metric), el('th', {}, 'time share'), el('th', {}, 'checks'))),
              el('tbody', {}, ...v.top.map((b) => el('tr', {}, ...v.dims.map((d) => el('td', {}, String(b.key[d] ?? ''))), el('td', { class: b.level }, b.level), el('td', {}, b.score.value.toPrecision(3)), el('td', {}, formatPercent(b.metrics.time_share)), el('td', {}, b.findings.join(', '))))),
            )
          : null,
      ),
    ),
  );
}

/** Draws a trace report (the JSON of iolens trace --json). */
export function showTrace(report: Report, into: HTMLElement): void {
  // what to fix first (the verdict, then the findings costliest first), then the views and plots they come from
  into.replaceChildren(el('section', {}, banner(report)));
  const verdict = verdictSection(report);
  if (verdict) into.append(verdict);
  into.append(findings(report));
  const v = views(report);
  if (v) into.append(v);
  const p = plotsSection(report);
  if (p) into.append(p);
}

/**
 * The trace page: one file picker. A trace file is analysed on the server (as iolens trace); a `.json` file is the
 * JSON of `iolens trace --json` and is read by this page only.
 */
export function tracePage(): void {
  const m = main();
  const upload = el('input', { type: 'file', id: 'trace-upload', 'aria-label': 'a trace, or a trace report JSON' });
  const out = el('div', { id: 'trace' });
  m.append(
    el('h1', {}, 'Trace report'),
    el(
      'p',
      {},
      'Choose a trace — a DFTracer .pfw or .pfw.gz file, a Darshan log with DXT, or a .tar.gz of a Recorder folder — and the server analyses it as ',
      el('code', {}, 'iolens trace'),
      ' does; or choose the JSON of ',
      el('code', {}, 'iolens trace TRACE --json --charts > trace.json'),
      ', which this page reads without sending it: ',
      upload,
    ),
    out,
  );
  upload.addEventListener('change', async () => {
    const f = upload.files?.[0];
    if (!f) return;
    if (/\.json$/i.test(f.name)) {
      try {
        showTrace(upgradeReport(JSON.parse(await f.text())), out);
      } catch (err) {
        out.replaceChildren(errorBox(`${f.name}: ${(err as Error).message}`));
      }
      return;
    }
    out.replaceChildren(el('p', { class: 'muted' }, `Analysing ${f.name}…`));
    try {
      const token = sessionStorage.getItem('iolens-token');
      const report = await api<Report>(`/api/traces?name=${encodeURIComponent(f.name)}`, { method: 'POST', body: f, headers: { 'Content-Type': 'application/octet-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
      showTrace(report, out);
    } catch (err) {
      out.replaceChildren(errorBox(`${f.name}: ${(err as Error).message}`));
    }
  });
}
