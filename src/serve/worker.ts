import { copyFileSync, linkSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../contract/errors.js';
import { diagnoseTrace } from '../pipeline/diagnose-trace.js';
import { extract } from '../pipeline/extract.js';
import { projectRow, rowToJson } from '../store/row.js';
import { JOB_COLUMNS } from '../store/schema.js';
import { serveTasks } from '../util/tasks.js';

/**
 * The web service's decoding thread: one log (an upload's body, spooled to disk, or a stored job's log file) → its report with charts
 * (`iolens report --json --charts`) and its `jobs` row (the projection `iolens ingest` stores), both as JSON text so
 * that nothing but strings crosses back to the HTTP thread.
 */
export type DiagnoseTask =
  /** An uploaded log: the spool's file, shown under the name the client gave. */
  | { readonly kind: 'log'; readonly name: string; readonly file: string }
  | { readonly kind: 'path'; readonly path: string }
  /** A trace upload; `scratch`: the request's own folder (the service removes it once the task ends, however it ends). */
  | { readonly kind: 'trace'; readonly name: string; readonly file: string; readonly scratch: string };

export interface DiagnoseResult {
  /** SHA-256 of the log ('' for a trace). */
  readonly hash: string;
  /** The report JSON. */
  readonly report: string;
  /** The `jobs` row as one NDJSON line (`rowToJson`); '' for a trace. */
  readonly row: string;
}

export interface DiagnoseWorkerData {
  /** Decompression budget of one log (bytes). */
  readonly maxInflate?: number;
}

/** A trace upload (one file: DFTracer .pfw/.pfw.gz, a Darshan log with DXT, a .tar/.tar.gz of a trace folder): `iolens trace --json --charts`. */
async function traceReport(name: string, upload: string, scratch: string, maxInflate: number | undefined): Promise<DiagnoseResult> {
  // (in the request's folder: a thread stopped at the time limit runs no finally, the service removes the folder)
  const dir = mkdtempSync(join(scratch, 'iolens-trace-'));
  try {
    // the trace readers know a file by its name: the spooled body under the client's name (a link, else a copy)
    const file = join(dir, name);
    try {
      linkSync(upload, file);
    } catch {
      copyFileSync(upload, file);
    }
    const report = await diagnoseTrace([file], { charts: true, limits: { scratch, ...(maxInflate !== undefined ? { maxInflate } : {}) } });
    return { hash: '', report: JSON.stringify({ ...report, input: { ...report.input, paths: [name] } }).split(`${dir}/`).join(''), row: '' };
  } catch (err) {
    // the upload is named as the client named it: the server's temporary folder stays out of the answer
    if (err instanceof Error) err.message = err.message.split(`${dir}/`).join('').split(dir).join('(upload)');
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readUpload(task: { name: string; file: string }): Uint8Array {
  const bytes = readFileSync(task.file);
  if (bytes.length === 0) throw new InputError(`${task.name}: empty upload (no bytes)`);
  return bytes;
}

serveTasks<DiagnoseTask, DiagnoseResult>((task, data) => {
  const d = (data ?? {}) as DiagnoseWorkerData;
  if (task.kind === 'trace') return traceReport(task.name, task.file, task.scratch, d.maxInflate);
  const opts = { charts: true, ...(d.maxInflate !== undefined ? { maxInflate: d.maxInflate } : {}) };
  const input = task.kind === 'log' ? { path: task.name, bytes: readUpload(task) } : task.path;
  const x = extract(input, opts);
  return { hash: x.row.hash as string, report: JSON.stringify(x.report), row: rowToJson(JOB_COLUMNS, projectRow(x.row, Date.now())) };
});
