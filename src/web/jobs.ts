import { formatBytes, formatPercent, formatSeconds } from '../text/format.js';
import { api, el, errorBox, main } from './dom.js';

interface JobsAnswer {
  total: number;
  offset: number;
  limit: number;
  jobs: Record<string, unknown>[];
}

const FILTERS = ['q', 'app', 'problem', 'level', 'run', 'node', 'sort', 'order'] as const;
const SORTS: [string, string][] = [['start_epoch', 'start'], ['run_time', 'run time'], ['nprocs', 'processes'], ['total_bytes', 'bytes'], ['io_time', 'I/O time (slowest rank)'], ['io_share', 'I/O share of the run'], ['io_mibs', 'MiB/s'], ['app', 'application'], ['worst_level', 'worst level'], ['job_id', 'job id']];

/** The jobs explorer: filter, sort and page through the store; every row links to its job page. */
export async function jobsPage(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const m = main();
  const input = (name: string, label: string) => el('label', {}, label, ' ', el('input', { name, value: params.get(name) ?? '', size: 14 }));
  const select = (name: string, options: [string, string][]) => {
    const s = el('select', { name }, ...options.map(([v, t]) => el('option', { value: v }, t)));
    s.value = params.get(name) ?? options[0][0];
    return s;
  };
  const form = el(
    'form',
    { class: 'filters', method: 'get', action: '/jobs' },
    input('q', 'search'),
    input('app', 'application'),
    input('problem', 'problem'),
    el('label', {}, 'level ', select('level', [['', 'any'], ['HIGH', 'HIGH'], ['WARN', 'WARN'], ['OK', 'OK'], ['INFO', 'INFO']])),
    el('label', {}, 'sort ', select('sort', SORTS)),
    select('order', [['desc', 'descending'], ['asc', 'ascending']]),
    params.get('run') ? el('input', { type: 'hidden', name: 'run', value: params.get('run')! }) : null,
    params.get('node') ? el('input', { type: 'hidden', name: 'node', value: params.get('node')! }) : null,
    el('button', { type: 'submit' }, 'Show'),
  );
  m.append(el('h1', {}, 'Jobs'), form);
  if (params.get('run')) m.append(el('p', {}, `Jobs of ${params.get('run')} node ${params.get('node') ?? 0} `, el('a', { href: '/jobs' }, '(all jobs)')));
  const q = new URLSearchParams();
  for (const f of FILTERS) if (params.get(f)) q.set(f, params.get(f)!);
  const offset = Number(params.get('offset') ?? 0) || 0;
  q.set('offset', String(offset));
  q.set('limit', '50');
  let page: JobsAnswer;
  try {
    page = await api<JobsAnswer>(`/api/jobs?${q}`);
  } catch (err) {
    m.append(errorBox((err as Error).message));
    return;
  }
  const num = (v: unknown, f: (x: number) => string) => (typeof v === 'number' ? f(v) : '—');
  const table = el(
    'table',
    { class: 'jobs', id: 'jobs' },
    el('thead', {}, el('tr', {}, ...['job', 'application', 'processes', 'start', 'run time', 'bytes', 'I/O time (slowest rank)', 'of the run', 'MiB/s', 'worst', 'problems'].map((h) => el('th', {}, h)))),
    el(
      'tbody',
      {},
      ...page.jobs.map((j) =>
        el(
          'tr',
          {},
          el('td', {}, el('a', { href: `/jobs/${String(j.hash)}` }, j.job_id !== null ? String(j.job_id) : String(j.hash).slice(0, 12))),
          el('td', { title: String(j.exe ?? '') }, String(j.app ?? '')),
          el('td', {}, String(j.nprocs ?? '')),
          el('td', {}, num(j.start_epoch, (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'))),
          el('td', {}, num(j.run_time, formatSeconds)),
          el('td', {}, num(j.total_bytes, formatBytes)),
          el('td', { title: typeof j.io_time_cumulative === 'number' ? `${formatSeconds(j.io_time_cumulative)} summed over ranks` : '' }, num(j.io_time, formatSeconds)),
          el('td', {}, num(j.io_share, formatPercent)),
          el('td', {}, num(j.io_mibs, (x) => x.toFixed(1))),
          el('td', { class: String(j.worst_level ?? '') }, String(j.worst_level ?? '')),
          el('td', {}, Array.isArray(j.problems) ? j.problems.join(', ') : ''),
        ),
      ),
    ),
  );
  const link = (o: number, text: string) => {
    const p = new URLSearchParams(params);
    p.set('offset', String(o));
    return el('a', { href: `/jobs?${p}` }, text);
  };
  m.append(
    el('p', { id: 'count' }, `${page.total} jobs` + (page.total ? `, ${page.offset + 1}–${page.offset + page.jobs.length} shown` : '')),
    table,
    el('p', { class: 'pager' }, offset > 0 ? link(Math.max(0, offset - page.limit), '← previous') : null, ' ', offset + page.limit < page.total ? link(offset + page.limit, 'next →') : null),
  );
}
