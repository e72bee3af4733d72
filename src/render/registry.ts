import type { Report } from '../contract/index.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { RenderOptions } from './options.js';
import { renderTerminal } from './terminal.js';
import { renderTraceCsv } from './trace-csv.js';
import { renderTraceTerminal } from './trace-terminal.js';

/** A renderer turns the report JSON (and presentation options) into text. It reads nothing else. */
export type Renderer = (report: Report, opts: RenderOptions) => string;

/**
 * Every output format, by name (Vitest's ReportersMap), for both kinds of report: a Darshan report, and a trace
 * report (the one with a `trace` section), which the terminal and CSV formats show with its views. HTML and
 * Markdown show the findings of either kind; JSON is the report itself.
 */
export const RENDERERS = {
  csv: (report) => (report.trace ? renderTraceCsv(report) : renderCsv(report)),
  html: renderHtml,
  json: renderJson,
  markdown: renderMarkdown,
  terminal: (report, opts) => (report.trace ? renderTraceTerminal(report, opts) : renderTerminal(report, opts)),
} as const satisfies Record<string, Renderer>;

export type RendererName = keyof typeof RENDERERS;

/** File extension of each format when exported to a directory. */
export const EXTENSIONS: Record<RendererName, string> = { csv: 'csv', html: 'html', json: 'json', markdown: 'md', terminal: 'txt' };

/** Renders a report in one of the formats (the report JSON is the only input; options change presentation only). */
export function renderReport(report: Report, format: RendererName = 'terminal', opts: RenderOptions = {}): string {
  const render = RENDERERS[format];
  if (!render) throw new RangeError(`unknown format '${String(format)}' (known: ${Object.keys(RENDERERS).join(', ')})`);
  return render(report, opts);
}
