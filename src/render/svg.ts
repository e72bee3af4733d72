import { createRequire } from 'node:module';
import type { Plot } from './plots.js';

/**
 * Static SVG of a plot, drawn in Node by Apache ECharts' server-side renderer (no browser, no DOM): the same chart
 * specification the web pages hand to ECharts in the browser. ECharts is loaded on first use only, so commands
 * that draw no plot never pay for it.
 */

interface EChartsSsr {
  setOption(option: Record<string, unknown>): void;
  renderToSVGString(): string;
  dispose(): void;
}
interface EChartsModule {
  init(dom: null, theme: null, opts: { renderer: 'svg'; ssr: true; width: number; height: number }): EChartsSsr;
}

let echarts: EChartsModule | null = null;

function load(): EChartsModule {
  if (!echarts) echarts = createRequire(import.meta.url)('echarts') as EChartsModule;
  return echarts;
}

/** The SVG markup of one plot at the given width (its own suggested height). */
export function plotSvg(plot: Plot, width = 760): string {
  const chart = load().init(null, null, { renderer: 'svg', ssr: true, width, height: plot.height });
  try {
    chart.setOption({ ...plot.option, animation: false });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
