import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog } from '../formats/darshan/index.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLog } from '../formats/darshan/writer.js';
import { diagnoseLog } from '../pipeline/diagnose.js';
import { corpusLogs } from '../testing/corpus.js';
import type { Report } from '../contract/index.js';
import { colourBands, jobEnd, learnedOf, reportPlots, shapWaterfall, WATERFALL_TOP } from './plots.js';
import { plotSvg } from './svg.js';
import { renderHtml } from './html.js';

const sample = () => corpusLogs().find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!;

test('plots of a log with every module, HEATMAP and DXT: one per PyDarshan summary plot and timeline', () => {
  const report = diagnoseLog(sample().path, { charts: true });
  const ids = reportPlots(report).map((p) => p.id);
  assert.deepEqual(ids, [
    'io-time', 'operations-posix', 'operations-mpi-io', 'operations-stdio', 'operations-h5f', 'operations-h5d',
    'access-sizes-posix', 'access-sizes-mpi-io', 'access-sizes-h5d', 'file-counts', 'file-sizes',
    'heatmap-timeline', 'heatmap-stdio', 'heatmap-posix', 'heatmap-mpiio',
    'dxt-timeline-dxt-posix', 'dxt-offsets-dxt-posix', 'dxt-timeline-dxt-mpiio', 'dxt-offsets-dxt-mpiio',
  ]);
  // Static SVG: axes, titles, one rectangle per DXT segment.
  const timeline = reportPlots(report).find((p) => p.id === 'dxt-timeline-dxt-posix')!;
  const svg = plotSvg(timeline);
  assert.match(svg, /^<svg /);
  assert.ok(!/<script/i.test(svg));
  assert.ok(svg.includes('DXT_POSIX timeline'));
  assert.ok(svg.includes('seconds since job start'));
  const d = report.charts!.dxt[0];
  const rects = (svg.match(/<path d="M[^"]*Z"[^>]*fill="#(4e79a7|f28e2b)"/g) ?? []).length;
  assert.ok(rects >= d.shown, `${rects} segment shapes for ${d.shown} segments`);
  const ops = plotSvg(reportPlots(report).find((p) => p.id === 'operations-posix')!);
  for (const label of ['Read', 'Write', 'Open', 'Stat', 'Seek', 'Mmap', 'Fsync', 'POSIX operation counts']) assert.ok(ops.includes(`>${label}<`), label);
});

test('a report without charts has no plots and its HTML no plot section; with charts the HTML has one SVG per plot', () => {
  const plain = diagnoseLog(sample().path);
  assert.deepEqual(reportPlots(plain), []);
  assert.ok(!renderHtml(plain).includes('<svg'));
  const withCharts = diagnoseLog(sample().path, { charts: true });
  const html = renderHtml(withCharts);
  assert.equal((html.match(/<svg /g) ?? []).length, reportPlots(withCharts).length);
  assert.ok(!/<script/i.test(html));
});

test('names from the log are escaped in static plots and tooltips', () => {
  const evil = '<script>alert(1)</script>"\'&\u001b[31m';
  const input = synthesizeLog({ posixFiles: 2, nprocs: 2, dxtSegments: 20, exe: `./app ${evil}` });
  const names = [...input.names].map(([id, n]) => [id, `/tmp/${evil}${n.replace(/.*\//, '')}`] as const);
  const log = DarshanLog.fromBytes(writeLog({ ...input, names }), 'evil.darshan');
  const report = diagnoseLog(log, { charts: true, logName: 'evil.darshan' });
  const dxt = report.charts!.dxt[0];
  assert.ok(dxt.files.some((f) => f.includes('<script>')), 'the names reach the charts section as they are');
  const html = renderHtml(report);
  assert.ok(!html.includes('<script>'), 'no markup from the log in the page');
  const plot = reportPlots(report).find((p) => p.id === 'dxt-timeline-dxt-posix')!;
  const tip = (plot.option.tooltip as { formatter(p: { value: number[] }): string }).formatter({ value: [0, 0, 0, 0] });
  assert.ok(tip.includes('&lt;script&gt;') && !tip.includes('<script') && !tip.includes('\u001b'), tip);
});

const handMade = (contributions: { feature: string; value: number | string | null; shap: number }[], extra: object = {}): Report =>
  ({ ...diagnoseLog(sample().path), learned: { predicted: 250, measured: 120, model: { unit: 'MiB/s' }, contributors: contributions, ...extra } }) as unknown as Report;

test('SHAP waterfall: base + contributions = prediction, largest first, the rest summed, strings escaped', () => {
  const contributions: { feature: string; value: number | string | null; shap: number }[] = Array.from({ length: 15 }, (_, i) => ({ feature: `f${i}`, value: i, shap: (i % 2 ? -1 : 1) * (i + 1) * 0.01 }));
  contributions.push({ feature: '<b>x</b>', value: 'a<b', shap: 0.5 });
  const report = handMade(contributions);
  const learned = learnedOf(report)!;
  const plot = shapWaterfall(learned);
  assert.equal(reportPlots(report)[0].id, 'shap-waterfall');
  const opt = plot.option as { yAxis: { data: string[] }; series: { data: (number | string)[] }[] };
  const labels = opt.yAxis.data;
  assert.equal(labels.length, WATERFALL_TOP + 3); // base, 12 features, "N other features", prediction
  assert.equal(labels[1], '<b>x</b> = a<b');
  assert.equal(labels[WATERFALL_TOP + 1], '4 other features');
  const output = Math.log10(1 + 250);
  const sum = contributions.reduce((s, c) => s + c.shap, 0);
  const ends = opt.series[3].data;
  assert.ok(Math.abs((ends[0] as number) - (output - sum)) < 1e-12, 'base derived from the output');
  assert.ok(Math.abs((ends[ends.length - 1] as number) - output) < 1e-12, 'ends at the prediction');
  const tip = (plot.option.tooltip as { formatter(p: { dataIndex: number }[]): string }).formatter([{ dataIndex: 1 }]);
  assert.equal(tip, '&lt;b&gt;x&lt;/b&gt; = a&lt;b<br>SHAP +0.500');
  const svg = plotSvg(plot);
  assert.ok(svg.includes('&lt;b&gt;x&lt;/b&gt;') && !svg.includes('<b>'));
  // A given base is used as is; a malformed section is ignored.
  assert.equal((shapWaterfall({ ...learned, base: 1 }).option as { series: { data: number[] }[] }).series[3].data[0], 1);
  assert.equal(learnedOf(handMade([{ feature: 'a', value: 1, shap: Number.NaN }])), null);
  // With the section's base and output (the report lists only the largest contributions), the features it does not
  // list are one bar that closes the gap to the output.
  const withBase = shapWaterfall(learnedOf(handMade([{ feature: 'a', value: 1, shap: -0.25 }], { base: 2, output: 1.5 }))!);
  const o = withBase.option as { yAxis: { data: string[] }; series: { data: (number | string)[] }[] };
  assert.deepEqual(o.yAxis.data, ['base value', 'a = 1', 'all other features', 'prediction']);
  assert.deepEqual(o.series[2].data, ['-', 0.25, 0.25, '-']);
  assert.deepEqual(o.series[3].data, [2, '-', '-', 1.5]);
});

test('time axes end at the job\'s end; heatmap colour bars are labelled in bytes; the waterfall names features in words', () => {
  const report = diagnoseLog(sample().path, { charts: true });
  const plots = reportPlots(report);
  const end = jobEnd(report);
  const bin = report.charts!.heatmap!.binSeconds;
  assert.ok(end >= report.io.runTime && end < 1, `${end}`);
  for (const p of plots.filter((q) => q.id.startsWith('heatmap-'))) {
    const times = (p.option.xAxis as { data: number[] }).data;
    // (a bin with bytes is never dropped: Darshan may count bytes into the bin the job's end falls in, or the next)
    assert.ok(times[times.length - 1] <= end + bin + 1e-9 && times[times.length - 1] > end - bin - 1e-9, `${p.id}: last bin starts at ${times[times.length - 1]}, the job ends at ${end}`);
    assert.ok(times.length < Math.max(...report.charts!.heatmap!.layers.map((l) => l.read.length)), `${p.id}: the empty bins past the end are gone`);
  }
  for (const p of plots.filter((q) => q.id.startsWith('dxt-'))) assert.equal((p.option.xAxis as { max: number }).max, end, p.id);
  // The colour bar: five bands, each labelled with its range in bytes, the top one ending at the largest cell.
  const rank = plots.find((p) => p.id === 'heatmap-posix')!;
  const vm = rank.option.visualMap as { pieces: { label: string; max: number }[] };
  assert.equal(vm.pieces.length, 5);
  for (const piece of vm.pieces) assert.match(piece.label, /^\d[\d.]* [KMGT]?i?B – \d[\d.]* [KMGT]?i?B$/);
  assert.deepEqual(colourBands(5 * 1024).map((b) => b.label).reverse(), ['0 B – 1.00 KiB', '1.00 KiB – 2.00 KiB', '2.00 KiB – 3.00 KiB', '3.00 KiB – 4.00 KiB', '4.00 KiB – 5.00 KiB']);
  const w = shapWaterfall(learnedOf(handMade([{ feature: 'aiio_posix_size_write_1k_10k', value: Math.log10(52000 + 1), shap: -0.5 }, { feature: 'gauge_bytes_read_perc', value: 0.25, shap: 0.1 }]))!);
  const labels = (w.option.yAxis as { data: string[]; axisLabel: { overflow: string } });
  assert.deepEqual(labels.data.slice(1, 3), ['writes of 1–10 KiB = 52,000', 'share of bytes read = 25.0%']);
  assert.equal(labels.axisLabel.overflow, 'break', 'long labels wrap, never cut');
});
