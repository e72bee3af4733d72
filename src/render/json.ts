import type { Report } from '../contract/index.js';
import { escapeJsonForTerminal } from '../text/escape.js';

/**
 * The report as JSON (the report is the JSON; this only serialises it). Characters that act on a terminal (C1
 * controls, DEL, bidirectional controls, line separators) are written as `\uNNNN` escapes, which any JSON reader
 * reads back as the same characters: a log's names cannot drive the terminal the JSON is printed to.
 */
export function renderJson(report: Report): string {
  return safeJson(report, 2);
}

/** `JSON.stringify(value, null, indent)` and a newline, terminal-safe as `renderJson`. */
export function safeJson(value: unknown, indent?: number): string {
  return `${escapeJsonForTerminal(JSON.stringify(value, null, indent))}\n`;
}
