import { SlurmError, type OutputFormat } from './plan.js';

/**
 * Joins the outputs of a sharded `iolens report` batch into the output one process gives for the whole batch:
 * CSV — one header, then every part's rows in input order; JSON — one object per line (a task that had a single log
 * printed it indented, as `iolens report` does for one log, and it is put on one line); terminal text — the parts
 * one after the other. A batch of one log is that log's output as it is.
 */

export interface ReportPart {
  /** Logs in this task's list. */
  readonly logs: number;
  readonly out: string;
  /** The task's standard error: one `iolens: …` line per log that could not be read. */
  readonly err: string;
}

/** Number of CSV records in `text` (newlines inside quoted fields do not end a record). */
export function csvRecords(text: string): number {
  let n = 0;
  let quoted = false;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    if (c === 10 && !quoted) {
      n++;
      open = false;
    } else open = true;
  }
  return open ? n + 1 : n;
}

function errorLines(err: string): string[] {
  return err.split('\n').filter((l) => l.startsWith('iolens: '));
}

/**
 * One part of the batch (task `index`), ready to append to the output: its rows without the header (CSV), its objects
 * one per line (JSON), or its text. `header` is the CSV header of the batch; `totalLogs` the logs of the whole
 * batch (a batch of one is that log's output as it is). Checks that every log of the part is accounted for — a row
 * (CSV, JSON) or an error line — and throws a `SlurmError` naming the part otherwise.
 */
export function joinReportPart(p: ReportPart, index: number, format: OutputFormat, totalLogs: number, header: string): { text: string; errors: string[] } {
  const errors = errorLines(p.err);
  const ok = p.logs - errors.length;
  if (ok < 0) throw new SlurmError(`part ${index}: ${errors.length} error lines for ${p.logs} logs`);
  if (totalLogs === 1 || format === 'terminal') return { text: p.out, errors };
  if (format === 'csv') {
    // A list of several logs prints the header first, whatever happens; a list of one, only with its row.
    const hasHeader = p.logs > 1 || ok > 0;
    if (hasHeader && !p.out.startsWith(header)) throw new SlurmError(`part ${index}: its CSV does not start with the batch header`);
    const rows = hasHeader ? p.out.slice(header.length) : p.out;
    if (csvRecords(rows) !== ok) throw new SlurmError(`part ${index}: ${csvRecords(rows)} CSV rows for ${ok} readable logs`);
    return { text: rows, errors };
  }
  let text = p.out;
  if (p.logs === 1 && ok === 1) {
    try {
      text = `${JSON.stringify(JSON.parse(p.out))}\n`;
    } catch {
      throw new SlurmError(`part ${index}: its output is not JSON`);
    }
  }
  const lines = text.split('\n').filter((l) => l !== '').length;
  if (lines !== ok) throw new SlurmError(`part ${index}: ${lines} JSON lines for ${ok} readable logs`);
  return { text, errors };
}

/** The whole batch from its parts, in task order (the merge job appends part by part instead). */
export function mergeReportParts(parts: readonly ReportPart[], format: OutputFormat, totalLogs: number, header: string): { output: string; errors: string[] } {
  const joined = parts.map((p, i) => joinReportPart(p, i, format, totalLogs, header));
  const body = joined.map((j) => j.text).join('');
  return { output: totalLogs > 1 && format === 'csv' ? header + body : body, errors: joined.flatMap((j) => j.errors) };
}
