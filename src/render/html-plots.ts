import type { Report } from '../contract/index.js';
import { escapeHtml as H } from '../text/escape.js';
import { reportPlots } from './plots.js';
import { plotSvg } from './svg.js';

/** CSS of the plots section. */
export const PLOTS_CSS = `.plots{display:flex;flex-wrap:wrap;gap:1em}.plot{margin:0;flex:1 1 46em;max-width:100%}.plot svg{max-width:100%;height:auto}
.plot figcaption{color:#555;font-size:.9em}`;

/** The report's plots as static SVG figures (no script), or '' when the report has none. */
export function plotsSection(report: Report): string {
  const plots = reportPlots(report);
  if (!plots.length) return '';
  const figs = plots.map((p) => `<figure class="plot" id="plot-${p.id}" data-plot="${p.id}">${plotSvg(p)}<figcaption>${H(p.caption)}</figcaption></figure>`);
  return `<section><h2>PLOTS</h2><div class="plots">\n${figs.join('\n')}\n</div></section>`;
}
