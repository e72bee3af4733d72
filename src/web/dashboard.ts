import type { ClusterNodeRows, ClusterNodeView } from '../contract/index.js';
import { escapeHtml as H } from '../text/escape.js';
import { featureName, featureQuantity, unitText, type FeatureName } from '../text/feature-names.js';
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
const unslog = (p: number) => Math.sign(p) * (10 ** Math.abs(p) - 1);
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

/**
 * The colour bar of the hierarchy: the gradient the boxes are coloured with, from the lowest to the highest value
 * (log scale), with five values under it in MiB/s or seconds.
 */
function colourBar(nodes: NodeView[], by: ColourBy): HTMLElement {
  const v = (n: NodeView) => (by === 'throughput' ? n.medianThroughput : n.ioTime);
  const vals = nodes.map(v).filter((x): x is number => x !== null && x > 0).map(Math.log10);
  const bar = el('div', { class: 'colour-bar', id: 'colour-bar' });
  if (!vals.length) return bar;
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  const stops = [0, 0.25, 0.5, 0.75, 1];
  const gradient = stops.map((t) => colour(by === 'throughput' ? t : 1 - t)).join(', ');
  const text = (x: number) => (by === 'throughput' ? `${x >= 100 ? x.toFixed(0) : x.toPrecision(2)} MiB/s` : formatSeconds(x));
  const strip = el('div', { class: 'strip' });
  strip.style.background = `linear-gradient(to right, ${gradient})`;
  bar.append(
    el('span', { class: 'what' }, by === 'throughput' ? 'median POSIX throughput' : 'I/O time (slowest rank, summed over the jobs)'),
    el('div', { class: 'scale' }, strip, el('div', { class: 'ticks' }, ...stops.map((t) => el('span', { class: 'tick' }, text(10 ** (lo + t * (hi - lo))))))),
  );
  return bar;
}

/** Round quantities for the ticks of a log axis: powers of 1,024 for bytes, of 10 otherwise (with 3× between when few). */
function logTicks(unit: FeatureName['unit'], lo: number, hi: number): number[] {
  const base = unit === 'bytes' ? 1024 : 10;
  const steps = unit === 'bytes' ? [1, 32] : [1, 3];
  const out = new Set<number>([0]);
  for (const fine of [false, true]) {
    for (let k = 0; base ** k <= hi * base; k++) for (const s of fine ? steps : [1]) if (s * base ** k >= lo && s * base ** k <= hi) out.add(s * base ** k);
    if (out.size >= 4) break;
  }
  return [...out].filter((q) => q >= lo && q <= hi).sort((a, b) => a - b);
}

/**
 * One axis of the parallel coordinates: where a stored value sits on it, and ticks labelled in the feature's unit.
 * Shares are linear (percent); log10 features sit at their stored value; other counts, bytes and times at
 * sign·log10(1 + |x|); the labels undo the transform, so the axis reads in bytes, seconds or counts.
 */
function parallelAxis(f: FeatureName, values: number[], dim: number): { axis: Record<string, unknown>; position: (v: number) => number } {
  const linear = f.unit === 'ratio' || f.unit === 'number';
  const position = linear ? (v: number) => v : f.log10 ? (v: number) => v : slog;
  const quantity = linear ? (p: number) => p : f.log10 ? (p: number) => featureQuantity(f, p) : unslog;
  const ps = values.filter(Number.isFinite).map(position);
  // Shares from 0; log axes over the values' range (the spread is what the lines show).
  const lo = linear ? Math.min(0, ...ps) : Math.min(...ps);
  const hi = Math.max(lo + 1e-9, ...ps);
  const label = (p: number) => unitText(f.unit, quantity(p), !linear);
  const axis: Record<string, unknown> = { dim, name: f.name, min: lo, max: hi };
  if (linear) axis.axisLabel = { formatter: label, hideOverlap: true };
  else {
    const ticks = logTicks(f.unit, Math.max(0, quantity(lo)), quantity(hi)).map((q) => (f.log10 ? Math.log10(1 + q) : slog(q)));
    axis.axisLabel = { formatter: label, customValues: ticks, hideOverlap: true };
    axis.axisTick = { customValues: ticks };
  }
  return { axis, position };
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
    el('p', { class: 'muted' }, `${run.rows} jobs of ${run.source_table}, ${run.clusters} clusters, ${run.noise} noise. The hierarchy top down, a row per level: each box as wide as its share of the jobs; green is faster (or less I/O time lost), red slower. Click a box to select it.`),
  );
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const children = new Map<number, NodeView[]>();
  for (const n of data.nodes) if (n.parent !== null) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);
  const treeBox = el('div', { id: 'tree' });
  const details = el('section', { id: 'node' });
  m.append(treeBox, details);

  // The hierarchy as an icicle: a row per depth, each node a box as wide as its share of the jobs, under its parent
  // (the rest of a parent's width: its jobs in no child). A box shows its name only where the name fits (measured
  // in the page's font at the chart's size, redrawn on resize), so labels never pile up; every box has a tooltip.
  const root = data.nodes.find((n) => n.parent === null)!;
  const boxes: { node: NodeView; x0: number; x1: number; depth: number }[] = [];
  const place = (n: NodeView, x0: number, x1: number, depth: number) => {
    boxes.push({ node: n, x0, x1, depth });
    const total = Math.max(1, n.jobs || n.size);
    let x = x0;
    for (const c of children.get(n.id) ?? []) {
      const w = ((x1 - x0) * Math.max(1, c.jobs || c.size)) / total;
      place(c, x, Math.min(x1, x + w), depth + 1);
      x += w;
    }
  };
  place(root, 0, 1, 0);
  const depth = Math.max(...boxes.map((b) => b.depth)) + 1;
  const measure = document.createElement('canvas').getContext('2d');
  const FONT = '11px system-ui, sans-serif';
  const textWidth = (t: string) => {
    if (!measure) return t.length * 7;
    measure.font = FONT;
    return measure.measureText(t).width;
  };
  let current = -1;
  const drawTree = (colourBy: ColourBy) => {
    const col = colours(data.nodes, colourBy);
    treeBox.replaceChildren();
    const renderItem = (params: { dataIndex: number }, api: { value(i: number): number; coord(v: number[]): number[] }) => {
      const b = boxes[params.dataIndex];
      const p0 = api.coord([b.x0, b.depth]);
      const p1 = api.coord([b.x1, b.depth + 1]);
      const x = Math.min(p0[0], p1[0]);
      const y = Math.min(p0[1], p1[1]);
      const w = Math.max(0, Math.abs(p1[0] - p0[0]) - 1);
      const h = Math.max(0, Math.abs(p1[1] - p0[1]) - 1);
      const n = b.node;
      const selected = n.id === current;
      const shapes: Record<string, unknown>[] = [
        { type: 'rect', shape: { x, y, width: w, height: h }, style: { fill: col.get(n.id), stroke: selected ? '#222' : 'none', lineWidth: selected ? 2 : 0 } },
      ];
      const jobs = formatCount(n.jobs || n.size);
      const label = [`${nodeName(n)} · ${jobs} jobs`, nodeName(n), n.selected ? `${n.label}` : ''].find((t) => t && textWidth(t) + 8 <= w && h >= 14);
      if (label) shapes.push({ type: 'text', silent: true, style: { text: label, x: x + w / 2, y: y + h / 2, align: 'center', verticalAlign: 'middle', fill: '#fff', font: FONT, fontWeight: 'bold' } });
      return { type: 'group', children: shapes };
    };
    const { box, chart: c } = chart(
      {
        animation: false,
        tooltip: {
          formatter: (p: { dataIndex: number }) => {
            const n = boxes[p.dataIndex].node;
            return [H(nodeName(n)), `${formatCount(n.jobs || n.size)} jobs`, n.medianThroughput !== null ? `median ${n.medianThroughput.toFixed(1)} MiB/s` : '', n.ioTime !== null ? `I/O time ${formatSeconds(n.ioTime)} (slowest rank, summed over its jobs)` : ''].filter(Boolean).join('<br>');
          },
        },
        grid: { left: 8, right: 8, top: 8, bottom: 8 },
        xAxis: { type: 'value', min: 0, max: 1, show: false },
        yAxis: { type: 'value', min: 0, max: depth, inverse: true, show: false },
        series: [{ type: 'custom', renderItem, encode: { x: [0, 1], y: 2 }, data: boxes.map((b) => [b.x0, b.x1, b.depth, b.node.id]) }],
      },
      Math.max(160, 24 + 56 * depth),
      'cluster-tree',
    );
    c.on('click', (p) => {
      const id = (p.value as number[] | undefined)?.[3];
      if (typeof id === 'number') void select(id);
    });
    treeBox.append(box, colourBar(data.nodes, colourBy));
    redraw = () => c.setOption({ series: [{ renderItem }] });
  };
  let redraw = () => undefined as void;
  by.addEventListener('change', () => drawTree(by.value as ColourBy));
  drawTree('throughput');

  const select = async (id: number) => {
    const n = byId.get(id);
    if (!n) return;
    history.replaceState(null, '', `/dashboard?run=${encodeURIComponent(data.run!)}&node=${id}`);
    current = id;
    redraw();
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
        ['I/O time (slowest rank, summed over its jobs)', n.ioTime !== null ? formatSeconds(n.ioTime) : '—'],
        ['How it differs', n.explanation?.rule?.text ?? '—'],
      ]),
      el('p', {}, el('a', { id: 'drill', href: `/jobs?run=${encodeURIComponent(data.run!)}&node=${id}` }, `${formatCount(n.jobs || n.size)} jobs →`)),
    );
    const shap = n.explanation?.shap?.features ?? [];
    const order = shap.length ? shap.map((f) => f.feature) : rows.features;
    const feats = order.filter((f) => rows.features.includes(f)).slice(0, 12);
    if (feats.length && rows.rows.length) {
      const idx = feats.map((f) => rows.features.indexOf(f));
      const axes = feats.map((f, i) => parallelAxis(featureName(f), rows.rows.map((r) => r.values[idx[i]] ?? 0), i));
      details.append(
        el('h3', {}, 'Features of its jobs'),
        chart(
          {
            animation: false,
            parallelAxis: axes.map((a) => a.axis),
            parallel: { layout: 'vertical', left: 300, right: 40, top: 20, bottom: 20, parallelAxisDefault: { nameLocation: 'start', nameGap: 12, nameTextStyle: { fontSize: 11, width: 270, overflow: 'break', align: 'right' } } },
            tooltip: { formatter: (p: { dataIndex: number }) => H(rows.rows[p.dataIndex]?.key ?? '') },
            series: [{ type: 'parallel', lineStyle: { width: 1, opacity: 0.35, color: '#4e79a7' }, data: rows.rows.map((r) => axes.map((a, i) => a.position(r.values[idx[i]] ?? 0))) }],
          },
          40 + 44 * feats.length,
          'parallel',
        ).box,
        el('p', { class: 'muted' }, `${rows.rows.length} of its jobs, each a line across its feature values, in their units (counts, bytes and times on log scales).`),
      );
    }
    if (shap.length) {
      const top = shap.slice(0, 12).reverse();
      details.append(
        el('h3', {}, 'What limits it (SHAP summary)'),
        chart(
          {
            animation: false,
            grid: { left: 300, right: 30, top: 10, bottom: 40 },
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: (ps: { dataIndex: number }[]) => { const f = top[ps[0].dataIndex]; return `${H(featureName(f.feature).name)} (${H(f.feature)})<br>mean |SHAP| ${f.mean_abs.toFixed(3)} (${f.sign === '+' ? 'more of it: faster' : f.sign === '-' ? 'more of it: slower' : 'no clear direction'})`; } },
            xAxis: { type: 'value', name: 'mean |SHAP| (log10 MiB/s)', nameLocation: 'middle', nameGap: 26 },
            // The name table's words; long names wrap, never cut.
            yAxis: { type: 'category', data: top.map((f) => featureName(f.feature).name), axisLabel: { width: 280, overflow: 'break', lineHeight: 13, fontSize: 11 } },
            series: [{ type: 'bar', data: top.map((f) => ({ value: f.mean_abs, itemStyle: { color: f.sign === '-' ? '#e15759' : f.sign === '+' ? '#59a14f' : '#bab0ac' } })) }],
          },
          60 + 32 * top.length,
          'shap-summary',
        ).box,
      );
    }
    if (rows.scatter && rows.scatter.length) {
      const pts = rows.scatter.filter((s) => s.measured !== null && s.measured > 0 && s.predicted > 0);
      const all = pts.flatMap((s) => [s.predicted, s.measured!]);
      // The target by its name in words, with its unit (io_mibs: I/O throughput, MiB/s).
      const t = rows.target ? featureName(rows.target) : null;
      const target = t ? t.name : '';
      const unit = t && t.unit !== 'number' && t.unit !== 'count' ? ` (${t.unit})` : '';
      const lo = 10 ** Math.floor(Math.log10(Math.min(...all)));
      const hi = 10 ** Math.ceil(Math.log10(Math.max(...all)));
      details.append(
        el('h3', {}, `Predicted vs measured ${target}`),
        chart(
          {
            animation: false,
            grid: { left: 70, right: 30, top: 20, bottom: 50 },
            tooltip: { formatter: (p: { dataIndex: number; seriesIndex: number }) => { const s = pts[p.dataIndex]; return s ? `${H(s.key.slice(0, 16))}<br>predicted ${s.predicted.toFixed(1)}, measured ${s.measured!.toFixed(1)}${s.ood ? ' (outside the model\u2019s range)' : ''}` : ''; } },
            xAxis: { type: 'log', name: `measured${unit}`, nameLocation: 'middle', nameGap: 28, min: lo, max: hi },
            yAxis: { type: 'log', name: `predicted${unit}`, min: lo, max: hi },
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
