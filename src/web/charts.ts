// ECharts for the pages: the modules the plots use, drawn with the SVG renderer (crisp, countable elements), each
// chart resized with its container.
import * as echarts from 'echarts/core';
import { BarChart, CustomChart, HeatmapChart, ParallelChart, ScatterChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, ParallelComponent, TitleComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { Plot } from '../render/plots.js';
import { el } from './dom.js';

echarts.use([BarChart, CustomChart, HeatmapChart, ParallelChart, ScatterChart, LineChart, DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, ParallelComponent, TitleComponent, TooltipComponent, VisualMapComponent, SVGRenderer]);

const charts: echarts.ECharts[] = [];
window.addEventListener('resize', () => charts.forEach((c) => c.resize()));

/** Draws an ECharts option into a new box of the given height; returns the box and the chart. */
export function chart(option: Record<string, unknown>, height: number, id?: string): { box: HTMLElement; chart: echarts.ECharts } {
  const box = el('div', { class: 'chart', ...(id ? { 'data-plot': id } : {}) });
  box.style.height = `${height}px`;
  // Drawn once the box is in the page (ECharts needs its size).
  const c = echarts.init(box, undefined, { renderer: 'svg' });
  queueMicrotask(() => {
    c.resize();
    c.setOption(option as echarts.EChartsCoreOption);
  });
  charts.push(c);
  return { box, chart: c };
}

/** A plot of the shared plot model as a figure: the chart, then its caption. */
export function plotFigure(p: Plot): HTMLElement {
  const { box } = chart(p.option, p.height, p.id);
  return el('figure', { class: 'plot', id: `plot-${p.id}` }, box, el('figcaption', {}, p.caption));
}
