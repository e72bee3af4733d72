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
