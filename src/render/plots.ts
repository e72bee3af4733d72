import { ACCESS_SIZE_BINS, FILE_SIZE_BINS, type DxtSegments, type HeatmapLayer, type Report } from '../contract/index.js';
import { escapeHtml as H } from '../text/escape.js';
import { featureName, featureValueText } from '../text/feature-names.js';
import { formatBytes, formatCount, formatSeconds } from '../text/format.js';

/**
 * The plot model: every plot of a report, as a chart specification (an Apache ECharts option) computed from the
 * report JSON alone. One model for both outputs: `report --html` renders each plot to static SVG in Node (no script
 * in the file), the web service's job page hands the same options to ECharts in the browser (tooltips, zoom).
 * Every string that comes from the input (file names, layer names, feature names) is escaped where ECharts would
 * read it as HTML (tooltips); text drawn as SVG text is escaped by ECharts itself.
 */

/** One plot: a stable id (tests and pages find plots by it), a title, and the chart specification. */
export interface Plot {
  readonly id: string;
  readonly title: string;
  /** One sentence under the plot: what it shows, and what was left out. */
  readonly caption: string;
  /** An ECharts option (plain data and formatter functions). */
  readonly option: Record<string, unknown>;
  /** Suggested height in pixels. */
  readonly height: number;
}

/** The learned diagnosis as the waterfall reads it (from the report's `learned` section). */
export interface LearnedView {
  /** Predicted target (in `unit`). */
  readonly prediction: number;
  /** Measured target, null when unknown. */
  readonly measured: number | null;
  /** Model-space value before any feature (log10(1 + y)); derived from the output when absent. */
  readonly base?: number;
  /** Model-space output (log10(1 + prediction)); derived from the prediction when absent. */
  readonly output?: number;
  /** The target's unit (`MiB/s`), '' when it has none. */
  readonly unit?: string;
  /** The contributions the section lists (the largest); the rest of output − base is one bar when base is given. */
  readonly contributions: readonly { readonly feature: string; readonly value: number | string | null; readonly shap: number }[];
}

const COLORS = { read: '#4e79a7', write: '#f28e2b', metadata: '#76b7b2', other: '#bab0ac', up: '#59a14f', down: '#e15759' };
const GRID = { left: 90, right: 30, top: 40, bottom: 60, containLabel: false };
const TEXT = { fontFamily: 'system-ui, sans-serif' };

const bytesAxis = (v: number) => formatBytes(v);
const secondsAxis = (v: number) => formatSeconds(v);
const countAxis = (v: number) => (Math.abs(v) >= 1e4 ? v.toExponential(0) : formatCount(v));

/** The report's learned section as the waterfall reads it, else null (no section, or one with non-finite values). */
export function learnedOf(report: Report): LearnedView | null {
  const l = report.learned as Partial<NonNullable<Report['learned']>> | undefined;
  if (!l || typeof l !== 'object' || typeof l.predicted !== 'number' || !Number.isFinite(l.predicted) || !Array.isArray(l.contributors)) return null;
  if (!l.contributors.every((c) => c && typeof c.feature === 'string' && typeof c.shap === 'number' && Number.isFinite(c.shap))) return null;
  const finite = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    prediction: l.predicted,
    measured: finite(l.measured) ?? null,
    base: finite(l.base),
    output: finite(l.output),
    unit: typeof l.model?.unit === 'string' ? l.model.unit : '',
    contributions: l.contributors,
  };
}

function base(title: string): Record<string, unknown> {
  return { animation: false, textStyle: TEXT, title: { text: title, left: 'center', textStyle: { fontSize: 14 } }, grid: GRID };
}

function ioTimePlot(report: Report): Plot | null {
  const rows = report.charts?.ioTime.filter((m) => m.read + m.write + m.metadata > 0) ?? [];
  if (!rows.length) return null;
  const procs = Math.max(1, report.job.processes);
  const modules = rows.map((m) => m.module);
  const series = (['read', 'write', 'metadata'] as const).map((k) => ({
    name: k,
    type: 'bar',
    stack: 'time',
    itemStyle: { color: COLORS[k] },
    data: rows.map((m) => m[k] / procs),
  }));
  return {
    id: 'io-time',
    title: 'I/O time per module',
    caption: `Average seconds per process (summed over ${formatCount(procs)} processes, divided by their number) in reads, writes and metadata; the run took ${formatSeconds(report.io.runTime)}.`,
    height: 80 + 36 * modules.length,
    option: {
      ...base('I/O time per module (average per process)'),
      legend: { bottom: 0 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: secondsAxis },
      xAxis: { type: 'value', name: 'seconds', nameLocation: 'middle', nameGap: 28, axisLabel: { formatter: secondsAxis } },
      yAxis: { type: 'category', data: modules, inverse: true },
      series,
    },
  };
}

function operationsPlots(report: Report): Plot[] {
  return (report.charts?.operations ?? [])
    .filter((m) => m.ops.some((o) => o.count > 0))
    .map((m) => ({
      id: `operations-${slug(m.module)}`,
      title: `${m.module} operation counts`,
      caption: `Calls per operation, summed over every ${m.module} record.`,
      height: 300,
      option: {
        ...base(`${m.module} operation counts`),
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCount(v) },
        xAxis: { type: 'category', data: m.ops.map((o) => o.op), axisLabel: { interval: 0, rotate: m.ops.length > 6 ? 30 : 0 } },
        yAxis: { type: 'value', name: 'count', axisLabel: { formatter: countAxis } },
        series: [{ type: 'bar', name: 'count', itemStyle: { color: COLORS.read }, data: m.ops.map((o) => o.count) }],
      },
    }));
}

function accessSizePlots(report: Report): Plot[] {
  return (report.charts?.accessSizes ?? [])
    .filter((m) => [...m.read, ...m.write].some((v) => v > 0))
    .map((m) => ({
      id: `access-sizes-${slug(m.module)}`,
      title: `${m.module} access sizes`,
      caption:
        m.module === 'POSIX'
          ? 'POSIX requests per size bin (bytes), reads and writes.'
          : `${m.module} requests per bin of their aggregate datatype size (bytes), reads and writes.`,
      height: 300,
      option: {
        ...base(`${m.module} access sizes`),
        legend: { bottom: 0 },
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCount(v) },
        xAxis: { type: 'category', data: [...ACCESS_SIZE_BINS], axisLabel: { interval: 0, rotate: 30 } },
        yAxis: { type: 'value', name: 'requests', axisLabel: { formatter: countAxis } },
        series: [
          { name: 'read', type: 'bar', itemStyle: { color: COLORS.read }, data: [...m.read] },
          { name: 'write', type: 'bar', itemStyle: { color: COLORS.write }, data: [...m.write] },
        ],
      },
    }));
}

function filePlots(report: Report): Plot[] {
  const rows = report.charts?.files.filter((m) => m.total > 0) ?? [];
  if (!rows.length) return [];
  const modules = rows.map((m) => m.module);
  const cats = [
    ['read-only', 'readOnly', COLORS.read],
    ['write-only', 'writeOnly', COLORS.write],
    ['read-write', 'readWrite', COLORS.metadata],
    ['no data', 'noData', COLORS.other],
  ] as const;
  const counts: Plot = {
    id: 'file-counts',
    title: 'Files per module',
    caption: `Files by use: ${rows.map((m) => `${m.module} ${formatCount(m.total)} (${formatBytes(m.bytesRead)} read, ${formatBytes(m.bytesWritten)} written)`).join('; ')}.`,
    height: 80 + 36 * modules.length,
    option: {
      ...base('Files per module'),
      legend: { bottom: 0 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCount(v) },
      xAxis: { type: 'value', name: 'files', nameLocation: 'middle', nameGap: 28, minInterval: 1 },
      yAxis: { type: 'category', data: modules, inverse: true },
      series: cats.map(([name, key, color]) => ({ name, type: 'bar', stack: 'files', itemStyle: { color }, data: rows.map((m) => m[key]) })),
    },
  };
  const sizes: Plot = {
    id: 'file-sizes',
    title: 'File sizes',
    caption: 'Files per size: the highest byte the job touched + 1 (MPI-IO files: their POSIX size, else the bytes moved).',
    height: 300,
    option: {
      ...base('File sizes'),
      legend: { bottom: 0 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCount(v) },
      xAxis: { type: 'category', data: FILE_SIZE_BINS.map((b) => b.label), axisLabel: { interval: 0 } },
      yAxis: { type: 'value', name: 'files', minInterval: 1 },
      series: rows.map((m) => ({ name: m.module, type: 'bar', data: [...m.sizes] })),
    },
  };
  return [counts, sizes];
}

function heatmapPlots(report: Report): Plot[] {
  const h = report.charts?.heatmap;
  if (!h || !h.layers.length) return [];
  // The time axis ends at the job's end: Darshan's HEATMAP keeps bins past it (empty); they are dropped, never a
  // bin with bytes in it.
  const kept = Math.max(...h.layers.map((l) => l.read.length));
  let used = 0;
  for (const l of h.layers) for (let b = 0; b < kept; b++) if ((l.read[b] ?? 0) + (l.write[b] ?? 0) > 0 || l.matrix.some((row) => (row[b] ?? 0) > 0)) used = Math.max(used, b + 1);
  const end = jobEnd(report);
  const bins = Math.max(1, Math.min(kept, Math.max(used, end > 0 ? Math.ceil(end / h.binSeconds - 1e-9) : kept)));
  const times = Array.from({ length: bins }, (_, b) => b * h.binSeconds);
  const timeLabel = (v: number | string) => formatSeconds(Number(v));
  const out: Plot[] = [
    {
      id: 'heatmap-timeline',
      title: 'I/O over time (HEATMAP)',
      caption: `Bytes read and written per ${formatSeconds(h.binSeconds)} bin, summed over ranks, per layer.`,
      height: 320,
      option: {
        ...base('I/O over time (HEATMAP)'),
        legend: { bottom: 0, type: 'scroll' },
        tooltip: { trigger: 'axis', valueFormatter: bytesAxis },
        xAxis: { type: 'category', name: 'time since job start', nameLocation: 'middle', nameGap: 30, data: times, axisLabel: { formatter: timeLabel } },
        yAxis: { type: 'value', name: 'bytes', axisLabel: { formatter: bytesAxis } },
        series: h.layers.flatMap((l) =>
          (['read', 'write'] as const).map((k) => ({ name: `${l.layer} ${k}`, type: 'bar', stack: k, data: [...l[k]].slice(0, bins) })),
        ),
      },
    },
  ];
  for (const l of h.layers) if (l.matrix.some((row) => row.some((v) => v > 0))) out.push(rankHeatmap(l, times, timeLabel));
  return out;
}

function rankHeatmap(l: HeatmapLayer, times: number[], timeLabel: (v: number | string) => string): Plot {
  const rows = l.matrix.length;
  const label = (r: number) => (l.ranksPerRow === 1 ? `rank ${r}` : `ranks ${r * l.ranksPerRow}–${(r + 1) * l.ranksPerRow - 1}`);
  const data: [number, number, number][] = [];
  let max = 0;
  l.matrix.forEach((row, r) =>
    row.forEach((v, b) => {
      if (v > 0 && b < times.length) data.push([b, r, v]);
      if (v > max) max = v;
    }),
  );
  return {
    id: `heatmap-${slug(l.layer)}`,
    title: `${l.layer} heatmap`,
    caption: `Bytes read + written per rank${l.ranksPerRow > 1 ? ` group (${l.ranksPerRow} ranks a row)` : ''} and time bin (${l.layer} layer).`,
    height: Math.min(520, 120 + 14 * rows),
    option: {
      ...base(`${l.layer} heatmap`),
      grid: { ...GRID, right: 170 },
      tooltip: { formatter: (p: { value: [number, number, number] }) => `${H(label(p.value[1]))}<br>${timeLabel(times[p.value[0]])}: ${formatBytes(p.value[2])}` },
      xAxis: { type: 'category', name: 'time since job start', nameLocation: 'middle', nameGap: 30, data: times, axisLabel: { formatter: timeLabel } },
      yAxis: { type: 'category', name: l.ranksPerRow === 1 ? 'rank' : 'ranks', data: Array.from({ length: rows }, (_, r) => String(r * l.ranksPerRow)) },
      // The colour bar reads in bytes: five bands, each labelled with its range.
      visualMap: { type: 'piecewise', pieces: colourBands(Math.max(1, max)), orient: 'vertical', right: 5, top: 'middle', itemWidth: 14, itemHeight: 10, itemGap: 4, textStyle: { fontSize: 10 }, inRange: { color: ['#c6dbef', '#6baed6', '#2171b5', '#08306b'] } },
      series: [{ type: 'heatmap', name: l.layer, data }],
    },
  };
}

/** Five equal bands from 0 to `max` bytes, labelled with their ranges in bytes (the colour bar of a heatmap). */
export function colourBands(max: number): { min: number; max: number; label: string }[] {
  const step = max / 5;
  return Array.from({ length: 5 }, (_, i) => {
    const lo = i * step;
    const hi = i === 4 ? max : (i + 1) * step;
    return { min: lo, max: hi, label: `${formatBytes(lo)} – ${formatBytes(hi)}` };
  }).reverse();
}

/** The job's end in seconds since its start: its run time, or the last traced call when that ends later. */
export function jobEnd(report: Report): number {
  let end = Number.isFinite(report.io.runTime) ? report.io.runTime : 0;
  for (const d of report.charts?.dxt ?? []) for (let i = 0; i < d.shown; i++) if (d.end[i] > end) end = d.end[i];
  return end;
}

/** DXT segment tooltip: rank, file (escaped), operation, offset, length, times. */
function segmentTip(d: DxtSegments, i: number): string {
  return [
    `rank ${d.rank[i]} · ${d.write[i] ? 'write' : 'read'}`,
    H(d.files[d.file[i]] ?? ''),
    `offset ${d.offset[i] < 0 ? 'n/a' : formatBytes(d.offset[i])}, ${formatBytes(d.length[i])}`,
    `${formatSeconds(d.start[i])} → ${formatSeconds(d.end[i])} (${formatSeconds(d.end[i] - d.start[i])})`,
  ].join('<br>');
}

function dxtPlots(report: Report): Plot[] {
  const out: Plot[] = [];
  // Time axes from the job's start to its end (not to the next round number past it).
  const end = jobEnd(report);
  const timeAxis = { type: 'value', name: 'seconds since job start', nameLocation: 'middle', nameGap: 30, axisLabel: { formatter: secondsAxis, hideOverlap: true }, splitNumber: 5, min: 0, ...(end > 0 ? { max: end } : { scale: true }) };
  for (const d of report.charts?.dxt ?? []) {
    if (!d.shown) continue;
    const m = slug(d.module);
    const sampled = d.shown < d.total ? ` ${formatCount(d.shown)} of ${formatCount(d.total)} segments shown: the longest half and an even spread of the rest.` : '';
    const ranks = [...new Set(d.rank)].sort((a, b) => a - b);
    const rankRow = new Map(ranks.map((r, i) => [r, i]));
    const seg = (write: number) => {
      const data: number[][] = [];
      for (let i = 0; i < d.shown; i++) if (d.write[i] === write) data.push([d.start[i], d.end[i], rankRow.get(d.rank[i])!, i]);
      return data;
    };
    // Each call a bar from its start to its end on its rank's row (ECharts' custom series draws the rectangles).
    const renderItem = (_p: unknown, api: { value(i: number): number; coord(v: number[]): number[]; size(v: number[]): number[]; visual(k: string): string }) => {
      const a = api.coord([api.value(0), api.value(2)]);
      const b = api.coord([api.value(1), api.value(2)]);
      const h = Math.max(2, api.size([0, 1])[1] * 0.7);
      return { type: 'rect', shape: { x: a[0], y: a[1] - h / 2, width: Math.max(1, b[0] - a[0]), height: h }, style: { fill: api.visual('color') } };
    };
    out.push({
      id: `dxt-timeline-${m}`,
      title: `${d.module} timeline`,
      caption: `Each traced call from its start to its end, per rank (${formatCount(d.ranks)} ranks).${sampled}`,
      height: Math.min(560, 140 + 18 * ranks.length),
      option: {
        ...base(`${d.module} timeline`),
        legend: { bottom: 0 },
        tooltip: { formatter: (p: { value: number[] }) => segmentTip(d, p.value[3]) },
        dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter' }],
        xAxis: timeAxis,
        yAxis: { type: 'category', name: 'rank', data: ranks.map(String) },
        series: (['read', 'write'] as const).map((k) => ({
          name: k,
          type: 'custom',
          renderItem,
          itemStyle: { color: COLORS[k] },
          encode: { x: [0, 1], y: 2 },
          data: seg(k === 'write' ? 1 : 0),
        })),
      },
    });
    const points = (write: number) => {
      const data: number[][] = [];
      for (let i = 0; i < d.shown; i++) if (d.write[i] === write && d.offset[i] >= 0) data.push([d.start[i], d.offset[i], i]);
      return data;
    };
    if (d.offset.some((o) => o >= 0)) {
      out.push({
        id: `dxt-offsets-${m}`,
        title: `${d.module} offsets over time`,
        caption: `File offset of each traced call against its start time (all files).${sampled}`,
        height: 340,
        option: {
          ...base(`${d.module} offsets over time`),
          legend: { bottom: 0 },
          tooltip: { formatter: (p: { value: number[] }) => segmentTip(d, p.value[2]) },
          dataZoom: [{ type: 'inside', xAxisIndex: 0 }, { type: 'inside', yAxisIndex: 0 }],
          xAxis: timeAxis,
          yAxis: { type: 'value', name: 'offset', axisLabel: { formatter: bytesAxis } },
          series: (['read', 'write'] as const).map((k) => ({ name: k, type: 'scatter', symbolSize: 4, itemStyle: { color: COLORS[k] }, data: points(k === 'write' ? 1 : 0) })),
        },
      });
    }
  }
  return out;
}

/** Width of the waterfall's feature labels (pixels); longer labels wrap. */
const WATERFALL_LABEL = 280;

/** A contribution's value as the waterfall shows it: in the unit of its feature. */
function contributionValue(feature: string, v: number | string | null): string {
  if (v === null || (typeof v === 'number' && !Number.isFinite(v))) return 'n/a';
  if (typeof v === 'string') return v === '' ? '(none)' : v;
  return featureValueText(feature, v);
}

/** Contributions shown one by one in the waterfall; the rest are summed into one bar. */
export const WATERFALL_TOP = 12;

/**
 * The SHAP waterfall of a learned diagnosis: from the model's base value, each feature's contribution (largest
 * first), to the prediction, in model space (log10(1 + MiB/s)).
 */
export function shapWaterfall(l: LearnedView): Plot {
  const listed = l.contributions.reduce((s, c) => s + c.shap, 0);
  const output = l.output ?? Math.log10(1 + Math.max(0, l.prediction));
  const start = l.base ?? output - listed;
  const total = output - start;
  const sorted = [...l.contributions].filter((c) => c.shap !== 0).sort((a, b) => Math.abs(b.shap) - Math.abs(a.shap) || a.feature.localeCompare(b.feature));
  const shown = sorted.slice(0, WATERFALL_TOP);
  // Each feature by its name in words and its value in its unit (the one name table, src/text/feature-names.ts).
  const steps = shown.map((c) => {
    const name = featureName(c.feature).name;
    return { label: `${name} = ${contributionValue(c.feature, c.value)}`, feature: name === c.feature ? '' : c.feature, shap: c.shap };
  });
  // Everything not drawn one by one: listed features past the top, and (with a given base) the features the section
  // does not list; together they close the gap to the output.
  const rest = total - steps.reduce((s, c) => s + c.shap, 0);
  const more = sorted.length - shown.length;
  if (more > 0 || Math.abs(rest) > 1e-9) steps.push({ label: l.base === undefined ? `${more} other features` : 'all other features', feature: '', shap: rest });
  const labels = ['base value', ...steps.map((s) => s.label), 'prediction'];
  const invisible: number[] = [0];
  const up: (number | string)[] = ['-'];
  const down: (number | string)[] = ['-'];
  const ends: (number | string)[] = [start];
  let acc = start;
  for (const s of steps) {
    const next = acc + s.shap;
    invisible.push(Math.min(acc, next));
    (s.shap >= 0 ? up : down).push(Math.abs(s.shap));
    (s.shap >= 0 ? down : up).push('-');
    ends.push('-');
    acc = next;
  }
  invisible.push(0);
  up.push('-');
  down.push('-');
  ends.push(start + total);
  const fmt = (v: number) => v.toFixed(3);
  const unit = l.unit === undefined ? 'MiB/s' : l.unit;
  const mibs = (v: number) => `${(10 ** v - 1).toFixed(1)}${unit ? ` ${unit}` : ''}`;
  return {
    id: 'shap-waterfall',
    title: 'Learned diagnosis: what moved the prediction',
    caption: `From the model's base value (${mibs(start)}) to its prediction (${mibs(start + total)}${l.measured !== null ? `; measured ${mibs(Math.log10(1 + l.measured))}` : ''}), each feature's SHAP value in log10(1 + ${unit || 'y'}); green raises the predicted throughput, red lowers it.`,
    height: 120 + 36 * labels.length,
    option: {
      ...base('SHAP waterfall'),
      grid: { ...GRID, left: WATERFALL_LABEL + 20 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (ps: { dataIndex: number }[]) => {
          const i = ps[0]?.dataIndex ?? 0;
          if (i === 0) return `base value: ${fmt(start)} (${mibs(start)})`;
          if (i === labels.length - 1) return `prediction: ${fmt(start + total)} (${mibs(start + total)})`;
          const s = steps[i - 1];
          return `${H(s.label)}${s.feature ? ` (${H(s.feature)})` : ''}<br>SHAP ${s.shap >= 0 ? '+' : ''}${fmt(s.shap)}`;
        },
      },
      xAxis: { type: 'value', name: `log10(1 + ${unit || 'y'})`, nameLocation: 'middle', nameGap: 28, scale: true },
      // Labels wrap onto a second line rather than being cut.
      yAxis: { type: 'category', data: labels, inverse: true, axisLabel: { width: WATERFALL_LABEL, overflow: 'break', lineHeight: 13, fontSize: 11 } },
      series: [
        { name: 'offset', type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: invisible },
        { name: 'raises', type: 'bar', stack: 'w', itemStyle: { color: COLORS.up }, data: up },
        { name: 'lowers', type: 'bar', stack: 'w', itemStyle: { color: COLORS.down }, data: down },
        { name: 'value', type: 'bar', stack: 'w', itemStyle: { color: COLORS.read }, data: ends },
      ],
    },
  };
}

function tracePlots(report: Report): Plot[] {
  const t = report.trace;
  if (!t) return [];
  const c = t.characteristics;
  const cats = ['read', 'write', 'metadata', 'sync', 'other'] as const;
  const out: Plot[] = [
    {
      id: 'trace-categories',
      title: 'Calls by category',
      caption: `Share of the analysed calls, bytes and time (${formatSeconds(c.ioTime)} inside calls, summed over processes) per category.`,
      height: 300,
      option: {
        ...base('Calls by category'),
        legend: { bottom: 0 },
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${(v * 100).toFixed(1)}%` },
        xAxis: { type: 'category', data: ['operations', 'bytes', 'time'] },
        yAxis: { type: 'value', max: 1, axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%` } },
        series: cats.map((k) => ({ name: k, type: 'bar', stack: 'share', data: [c[k].opsShare, c[k].bytesShare, c[k].timeShare] })),
      },
    },
  ];
  const fns = Object.entries(c.callsByFunction).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 20);
  if (fns.length) {
    out.push({
      id: 'trace-functions',
      title: 'Calls by function',
      caption: `The ${fns.length} most called functions of the trace.`,
      height: 80 + 22 * fns.length,
      option: {
        ...base('Calls by function'),
        grid: { ...GRID, left: 160 },
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCount(v) },
        xAxis: { type: 'value', name: 'calls', axisLabel: { formatter: countAxis } },
        yAxis: { type: 'category', data: fns.map(([f]) => f), inverse: true, axisLabel: { width: 150, overflow: 'truncate' } },
        series: [{ type: 'bar', name: 'calls', itemStyle: { color: COLORS.read }, data: fns.map(([, n]) => n) }],
      },
    });
  }
  const tl = report.charts?.timeline;
  if (tl && tl.start.length) {
    out.push({
      id: 'trace-timeline',
      title: 'Trace timeline',
      caption: `Bytes read and written per ${formatSeconds(tl.windowSeconds)} window of the analysed calls.`,
      height: 320,
      option: {
        ...base('Trace timeline'),
        legend: { bottom: 0 },
        tooltip: { trigger: 'axis', valueFormatter: bytesAxis },
        dataZoom: [{ type: 'inside', xAxisIndex: 0 }],
        xAxis: { type: 'category', name: 'seconds since trace start', nameLocation: 'middle', nameGap: 30, data: tl.start.map((s) => formatSeconds(s)) },
        yAxis: { type: 'value', name: 'bytes', axisLabel: { formatter: bytesAxis } },
        series: [
          { name: 'read', type: 'bar', stack: 'b', itemStyle: { color: COLORS.read }, data: [...tl.readBytes] },
          { name: 'write', type: 'bar', stack: 'b', itemStyle: { color: COLORS.write }, data: [...tl.writeBytes] },
        ],
      },
    });
  }
  return out;
}

/** An id-safe form of a module or layer name (`MPI-IO` → `mpi-io`). */
function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'x';
}

/** Every plot of a report, in page order; empty when the report has no charts section (and no trace or learned part). */
export function reportPlots(report: Report): Plot[] {
  const learned = learnedOf(report);
  return [
    ...(learned ? [shapWaterfall(learned)] : []),
    ...tracePlots(report),
    ...[ioTimePlot(report)].filter((p): p is Plot => p !== null),
    ...operationsPlots(report),
    ...accessSizePlots(report),
    ...filePlots(report),
    ...heatmapPlots(report),
    ...dxtPlots(report),
  ];
}
