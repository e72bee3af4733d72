import type { ClusterNodeRows, ClusterNodeView } from '../contract/index.js';
import { escapeHtml as H } from '../text/escape.js';
import { formatCount, formatSeconds } from '../text/format.js';
import { chart } from './charts.js';
import { api, el, errorBox, kv, main } from './dom.js';

type NodeView = ClusterNodeView;
interface ClustersAnswer {
  runs: { run_id: string; created_at: string; rows: number; clusters: number; noise: number; source_table: string; note: string | null }[];
  run: string | null;
  nodes: NodeView[];
  model: { target: string; features: string[] } | null;
}
type NodeRows = ClusterNodeRows;

type ColourBy = 'throughput' | 'io';

const slog = (x: number) => Math.sign(x) * Math.log10(1 + Math.abs(x));
const nodeName = (n: NodeView) => (n.parent === null ? 'all jobs' : n.selected ? `cluster ${n.label}` : `node ${n.id}`);

/** Red (worst) to green (best) for t in [0, 1]. */
function colour(t: number): string {
  const c = Math.max(0, Math.min(1, t));
  return `hsl(${Math.round(c * 120)}, 60%, 48%)`;
}

function colours(nodes: NodeView[], by: ColourBy): Map<number, string> {
  const v = (n: NodeView) => (by === 'throughput' ? n.medianThroughput : n.ioTime);
  const vals = nodes.map(v).filter((x): x is number => x !== null && x > 0).map(Math.log10);
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  const out = new Map<number, string>();
  for (const n of nodes) {
    const x = v(n);
    if (x === null || x <= 0 || !vals.length) out.set(n.id, '#bbb');
    else {
      const t = hi > lo ? (Math.log10(x) - lo) / (hi - lo) : 0.5;
      out.set(n.id, colour(by === 'throughput' ? t : 1 - t));
    }
  }
  return out;
}

/** The facility dashboard: the cluster tree of a clustering run, and the selected cluster's features, SHAP summary, predictions and jobs. */
export async function dashboardPage(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const m = main();
  m.append(el('h1', {}, 'Facility dashboard'));
  let data: ClustersAnswer;
  try {
    data = await api<ClustersAnswer>(`/api/clusters${params.get('run') ? `?run=${encodeURIComponent(params.get('run')!)}` : ''}`);
  } catch (err) {
    m.append(errorBox((err as Error).message));
    return;
  }
  if (!data.run) {
    m.append(el('p', {}, 'No clustering run in this store yet: run iolens cluster --db FILE, then reload.'));
    return;
  }
  const run = data.runs.find((r) => r.run_id === data.run)!;
  const runSelect = el('select', { id: 'run' }, ...data.runs.map((r) => el('option', { value: r.run_id }, `${r.run_id} (${r.created_at}, ${r.rows} rows, ${r.clusters} clusters)`)));
  runSelect.value = data.run;
  runSelect.addEventListener('change', () => location.assign(`/dashboard?run=${encodeURIComponent(runSelect.value)}`));
  const by = el('select', { id: 'colour' }, el('option', { value: 'throughput' }, 'median POSIX throughput'), el('option', { value: 'io' }, 'lost I/O time'));
  m.append(
    el('p', { class: 'filters' }, el('label', {}, 'run ', runSelect), el('label', {}, 'colour by ', by)),
    el('p', { class: 'muted' }, `${run.rows} jobs of ${run.source_table}, ${run.clusters} clusters, ${run.noise} noise. Boxes are sized by jobs; green is faster (or less I/O time lost), red slower. Click a box to select it.`),
  );
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const children = new Map<number, NodeView[]>();
  for (const n of data.nodes) if (n.parent !== null) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);
  const treeBox = el('div', { id: 'tree' });
  const details = el('section', { id: 'node' });
  m.append(treeBox, details);

  const drawTree = (colourBy: ColourBy) => {
    const col = colours(data.nodes, colourBy);
    const item = (n: NodeView): Record<string, unknown> => ({
      name: nodeName(n),
      id: String(n.id),
      value: Math.max(1, n.jobs || n.size),
      itemStyle: { color: col.get(n.id) },
      children: (children.get(n.id) ?? []).map(item),
    });
    const root = data.nodes.find((n) => n.parent === null)!;
    treeBox.replaceChildren();
    const { box, chart: c } = chart(
      {
        animation: false,
        tooltip: {
          formatter: (p: { data: { id: string } }) => {
            const n = byId.get(Number(p.data.id))!;
            return [H(nodeName(n)), `${formatCount(n.jobs || n.size)} jobs`, n.medianThroughput !== null ? `median ${n.medianThroughput.toFixed(1)} MiB/s` : '', n.ioTime !== null ? `I/O time ${formatSeconds(n.ioTime)}` : ''].filter(Boolean).join('<br>');
          },
        },
        series: [{ type: 'treemap', roam: false, nodeClick: false, breadcrumb: { show: false }, upperLabel: { show: true, height: 18 }, levels: [{ itemStyle: { borderWidth: 2, gapWidth: 2, borderColor: '#fff' } }, { itemStyle: { gapWidth: 1 } }], data: (children.get(root.id) ?? [root]).map(item) }],
      },
      420,
      'cluster-tree',
    );
    c.on('click', (p) => {
      const id = (p.data as { id?: string } | null)?.id;
      if (id !== undefined) void select(Number(id));
    });
    treeBox.append(box);
  };
  by.addEventListener('change', () => drawTree(by.value as ColourBy));
  drawTree('throughput');

  const select = async (id: number) => {
    const n = byId.get(id);
    if (!n) return;
    history.replaceState(null, '', `/dashboard?run=${encodeURIComponent(data.run!)}&node=${id}`);
    details.replaceChildren(el('h2', {}, nodeName(n)), el('p', { class: 'muted' }, 'Loading…'));
    let rows: NodeRows;
    try {
      rows = await api<NodeRows>(`/api/clusters/${encodeURIComponent(data.run!)}/nodes/${id}`);
    } catch (err) {
      details.append(errorBox((err as Error).message));
      return;
    }
    details.replaceChildren(
      el('h2', {}, nodeName(n)),
      kv([
        ['Jobs', formatCount(n.jobs || n.size)],
        ['Median POSIX throughput', n.medianThroughput !== null ? `${n.medianThroughput.toFixed(1)} MiB/s` : '—'],
        ['I/O time (sum)', n.ioTime !== null ? formatSeconds(n.ioTime) : '—'],
        ['How it differs', n.explanation?.rule?.text ?? '—'],
      ]),
      el('p', {}, el('a', { id: 'drill', href: `/jobs?run=${encodeURIComponent(data.run!)}&node=${id}` }, `${formatCount(n.jobs || n.size)} jobs →`)),
    );
    const shap = n.explanation?.shap?.features ?? [];
    const order = shap.length ? shap.map((f) => f.feature) : rows.features;
    const feats = order.filter((f) => rows.features.includes(f)).slice(0, 12);
    if (feats.length && rows.rows.length) {
      const idx = feats.map((f) => rows.features.indexOf(f));
      details.append(
        el('h3', {}, 'Features of its jobs'),
        chart(
          {
            animation: false,
            parallelAxis: feats.map((f, i) => ({ dim: i, name: f.replace(/^gauge_/, ''), nameRotate: 20, nameTextStyle: { fontSize: 10 } })),
            parallel: { left: 40, right: 60, top: 70, bottom: 30 },
            tooltip: { formatter: (p: { dataIndex: number }) => H(rows.rows[p.dataIndex]?.key ?? '') },
            series: [{ type: 'parallel', lineStyle: { width: 1, opacity: 0.35, color: '#4e79a7' }, data: rows.rows.map((r) => idx.map((j) => slog(r.values[j] ?? 0))) }],
          },
          340,
          'parallel',
        ).box,
        el('p', { class: 'muted' }, `${rows.rows.length} of its jobs, each a line across its feature values (sign·log10(1 + x)).`),
      );
    }
    if (shap.length) {
      const top = shap.slice(0, 12).reverse();
      details.append(
        el('h3', {}, 'What limits it (SHAP summary)'),
        chart(
          {
            animation: false,
            grid: { left: 220, right: 30, top: 10, bottom: 40 },
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: (ps: { dataIndex: number }[]) => { const f = top[ps[0].dataIndex]; return `${H(f.feature)}<br>mean |SHAP| ${f.mean_abs.toFixed(3)} (${f.sign === '+' ? 'more of it: faster' : f.sign === '-' ? 'more of it: slower' : 'no clear direction'})`; } },
            xAxis: { type: 'value', name: 'mean |SHAP| (log10 MiB/s)', nameLocation: 'middle', nameGap: 26 },
            yAxis: { type: 'category', data: top.map((f) => f.label ?? f.feature), axisLabel: { width: 200, overflow: 'truncate' } },
            series: [{ type: 'bar', data: top.map((f) => ({ value: f.mean_abs, itemStyle: { color: f.sign === '-' ? '#e15759' : f.sign === '+' ? '#59a14f' : '#bab0ac' } })) }],
          },
          60 + 24 * top.length,
          'shap-summary',
        ).box,
      );
    }
    if (rows.scatter && rows.scatter.length) {
      const pts = rows.scatter.filter((s) => s.measured !== null && s.measured > 0 && s.predicted > 0);
      const all = pts.flatMap((s) => [s.predicted, s.measured!]);
      const lo = 10 ** Math.floor(Math.log10(Math.min(...all)));
      const hi = 10 ** Math.ceil(Math.log10(Math.max(...all)));
      details.append(
        el('h3', {}, `Predicted vs measured ${rows.target ?? ''}`),
        chart(
          {
            animation: false,
            grid: { left: 70, right: 30, top: 20, bottom: 50 },
            tooltip: { formatter: (p: { dataIndex: number; seriesIndex: number }) => { const s = pts[p.dataIndex]; return s ? `${H(s.key.slice(0, 16))}<br>predicted ${s.predicted.toFixed(1)}, measured ${s.measured!.toFixed(1)}${s.ood ? ' (outside the model\u2019s range)' : ''}` : ''; } },
            xAxis: { type: 'log', name: 'measured', nameLocation: 'middle', nameGap: 28, min: lo, max: hi },
            yAxis: { type: 'log', name: 'predicted', min: lo, max: hi },
            series: [
              { type: 'scatter', symbolSize: 6, data: pts.map((s) => ({ value: [s.measured!, s.predicted], itemStyle: { color: s.ood ? '#e15759' : '#4e79a7' } })) },
              { type: 'line', silent: true, showSymbol: false, lineStyle: { type: 'dashed', color: '#999' }, data: [[lo, lo], [hi, hi]] },
            ],
          },
          340,
          'predicted-measured',
        ).box,
      );
    }
  };
  const start = Number(params.get('node'));
  const first = params.get('node') !== null && byId.has(start) ? start : (data.nodes.find((n) => n.selected)?.id ?? data.nodes[0]?.id);
  if (first !== undefined) await select(first);
}
