import type { Report } from '../contract/index.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { RenderOptions } from './options.js';
import { renderTerminal } from './terminal.js';

/** A renderer turns the report JSON (and presentation options) into text. It reads nothing else. */
export type Renderer = (report: Report, opts: RenderOptions) => string;

/** Every output format, by name (Vitest's ReportersMap). */
export const RENDERERS = {
  csv: renderCsv,
  html: renderHtml,
  json: renderJson,
  markdown: renderMarkdown,
  terminal: renderTerminal,
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
