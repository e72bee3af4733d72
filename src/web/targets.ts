import { formatSeconds } from '../text/format.js';
import { chart } from './charts.js';
import { api, el, main } from './dom.js';

/** `/api/targets`: the store's `summary --section targets` (columns and rows). */
interface TargetsAnswer {
  title: string;
  columns: string[];
  rows: (string | number | null)[][];
  note?: string;
}

/** Series shown in the chart: the OSTs that cost the most job-seconds (the rest are in the table). */
const SERIES = 8;

/**
 * Storage targets over time across the store's jobs (issue 52): job-seconds lost to slow OSTs per hour, one bar
 * series per OST (the costliest ones), and the table of `summary --section targets` — per file system, OST and hour:
 * jobs, slow jobs, seconds lost, median file bandwidth and per-target server metrics where the store has them.
 */
export async function targetsPage(): Promise<void> {
  const m = main();
  m.append(el('h1', {}, 'Storage targets'));
  const a = await api<TargetsAnswer>('/api/targets?top=500');
  m.append(el('p', {}, a.title));
  if (a.note) m.append(el('p', { class: 'note' }, a.note));
  if (!a.rows.length) return;
  const col = (name: string) => a.columns.indexOf(name);
  const [fs, ost, hour, lost] = [col('fs'), col('ost'), col('hour'), col('lost_s')];
  const name = (r: (string | number | null)[]) => `${r[fs]} OST ${r[ost]}`;
  const byTarget = new Map<string, number>();
  for (const r of a.rows) byTarget.set(name(r), (byTarget.get(name(r)) ?? 0) + Number(r[lost] ?? 0));
  const shown = [...byTarget.entries()].sort((x, y) => y[1] - x[1]).slice(0, SERIES).map(([k]) => k);
  const hours = [...new Set(a.rows.map((r) => String(r[hour])))].sort();
  const series = shown.map((k) => ({
    name: k,
    type: 'bar',
    stack: 'lost',
    data: hours.map((h) => a.rows.filter((r) => name(r) === k && String(r[hour]) === h).reduce((s, r) => s + Number(r[lost] ?? 0), 0)),
  }));
  const { box } = chart(
    {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatSeconds(v) },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 70, right: 20, top: 40, bottom: 60 },
      xAxis: { type: 'category', data: hours, name: 'hour (jobs\' start, UTC)', nameLocation: 'middle', nameGap: 40 },
      yAxis: { type: 'value', name: 'job-seconds lost' },
      series,
    },
    360,
    'targets-chart',
  );
  m.append(box);
  const table = el(
    'table',
    { class: 'targets', id: 'targets-table' },
    el('thead', {}, el('tr', {}, ...a.columns.map((c) => el('th', {}, c)))),
    el(
      'tbody',
      {},
      ...a.rows.map((r) =>
        el(
          'tr',
          {},
          ...r.map((v, i) => el('td', {}, v === null ? '' : a.columns[i] === 'lost_s' ? formatSeconds(Number(v)) : a.columns[i] === 'median_mibs' ? `${Number(v).toFixed(2)} MiB/s` : String(v))),
        ),
      ),
    ),
  );
  m.append(table);
}
