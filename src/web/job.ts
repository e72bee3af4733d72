import type { Report } from '../contract/index.js';
import { reportPlots } from '../render/plots.js';
import { formatBytes, formatSeconds } from '../text/format.js';
import { plotFigure } from './charts.js';
import { api, el, errorBox, kv, main } from './dom.js';
import { banner, findings, verdictSection } from './findings.js';

interface JobAnswer {
  hash: string;
  row: Record<string, unknown> | null;
  clusters: { run_id: string; cluster: number; node: number; probability: number }[];
  report: Report | null;
  reportSource: string;
}

/** The plots of a report (the shared plot model), in a section. */
export function plotsSection(report: Report): HTMLElement | null {
  const plots = reportPlots(report);
  if (!plots.length) return null;
  return el('section', { id: 'plots' }, el('h2', {}, 'Plots'), el('div', { class: 'plots' }, ...plots.map(plotFigure)));
}

/** The job page: banner, findings, plots, cluster memberships. */
export async function jobPage(hash: string): Promise<void> {
  const m = main();
  m.append(el('p', { class: 'muted' }, 'Loading…'));
  let job: JobAnswer;
  try {
    job = await api<JobAnswer>(`/api/jobs/${encodeURIComponent(hash)}`);
  } catch (err) {
    main().append(el('h1', {}, 'Job'), errorBox((err as Error).message));
    return;
  }
  const page = main();
  const r = job.report;
  page.append(el('h1', {}, r ? `Job ${r.job.jobId || r.job.logName}` : `Job ${hash.slice(0, 12)}…`), el('p', { class: 'muted' }, 'SHA-256 ', el('code', {}, hash), ' · ', el('a', { href: `/api/jobs/${hash}` }, 'JSON')));
  if (r) {
    page.append(el('section', {}, banner(r)));
    const verdict = verdictSection(r);
    if (verdict) page.append(verdict);
    page.append(findings(r));
    // (with a model, the service's report carries its findings L01/L02 and the learned section the SHAP plot reads)
    const plots = plotsSection(r);
    if (plots) page.append(plots);
  } else if (job.row) {
    const row = job.row;
    page.append(
      el('p', {}, 'No report is stored for this job and its log is not readable here; the store row:'),
      kv([
        ['Path', String(row.path ?? '')],
        ['Application', String(row.app ?? '')],
        ['Processes', String(row.nprocs ?? '')],
        ['Run time', typeof row.run_time === 'number' ? formatSeconds(row.run_time) : '—'],
        ['Bytes', typeof row.total_bytes === 'number' ? formatBytes(row.total_bytes) : '—'],
        ['Problems', Array.isArray(row.problems) ? row.problems.join(', ') : '—'],
      ]),
    );
  }
  if (r) {
    // Compare with…: the application's median run in the store, or another job by its hash.
    const input = el('input', { type: 'text', name: 'base', placeholder: 'another job\'s SHA-256 (64 hex digits)', pattern: '[0-9a-f]{64}', size: 66, required: true });
    const form = el('form', { action: '/compare', method: 'get', class: 'compare-with' }, input, el('input', { type: 'hidden', name: 'other', value: hash }), el('button', { type: 'submit' }, 'Compare'));
    page.append(
      el(
        'section',
        { id: 'compare' },
        el('h2', {}, 'Compare with…'),
        el('p', {}, el('a', { href: `/compare?base=median&other=${hash}` }, job.row && typeof job.row.app === 'string' ? `the median run of ${job.row.app}` : "its application's median run"), ' (outlier or not, and why it differs), or another job:'),
        form,
      ),
    );
  }
  if (job.clusters.length) {
    page.append(
      el('section', {}, el('h2', {}, 'Clusters'), el('ul', {}, ...job.clusters.map((c) => el('li', {}, `${c.run_id}: `, el('a', { href: `/dashboard?run=${encodeURIComponent(c.run_id)}&node=${c.node}` }, c.cluster < 0 ? `noise (node ${c.node})` : `cluster ${c.cluster} (node ${c.node})`), ` membership ${c.probability.toFixed(2)}`)))),
    );
  }
}
