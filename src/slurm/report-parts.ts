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
 * Merges the parts (in task order). `header` is the CSV header of the batch. Checks that every log of every part is
 * accounted for — a row (or object, for CSV and JSON) or an error line — and throws a `SlurmError` naming the part
 * otherwise. Returns the output and the error lines.
 */
export function mergeReportParts(parts: readonly ReportPart[], format: OutputFormat, totalLogs: number, header: string): { output: string; errors: string[] } {
  const errors: string[] = [];
  const chunks: string[] = [];
  parts.forEach((p, i) => {
    const errs = errorLines(p.err);
    errors.push(...errs);
    const ok = p.logs - errs.length;
    if (ok < 0) throw new SlurmError(`part ${i}: ${errs.length} error lines for ${p.logs} logs`);
    if (totalLogs === 1) {
      chunks.push(p.out);
      return;
    }
    if (format === 'csv') {
      // A list of several logs prints the header first, whatever happens; a list of one, only with its row.
      const hasHeader = p.logs > 1 || ok > 0;
      if (hasHeader && !p.out.startsWith(header)) throw new SlurmError(`part ${i}: its CSV does not start with the batch header`);
      const rows = hasHeader ? p.out.slice(header.length) : p.out;
      if (csvRecords(rows) !== ok) throw new SlurmError(`part ${i}: ${csvRecords(rows)} CSV rows for ${ok} readable logs`);
      chunks.push(rows);
    } else if (format === 'json') {
      let text = p.out;
      if (p.logs === 1 && ok === 1) {
        try {
          text = `${JSON.stringify(JSON.parse(p.out))}\n`;
        } catch {
          throw new SlurmError(`part ${i}: its output is not JSON`);
        }
      }
      const lines = text.split('\n').filter((l) => l !== '').length;
      if (lines !== ok) throw new SlurmError(`part ${i}: ${lines} JSON lines for ${ok} readable logs`);
      chunks.push(text);
    } else chunks.push(p.out);
  });
  const body = chunks.join('');
  return { output: totalLogs > 1 && format === 'csv' ? header + body : body, errors };
}
