import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../contract/errors.js';
import { diagnoseTrace } from '../pipeline/diagnose-trace.js';
import { extract } from '../pipeline/extract.js';
import { projectRow, rowToJson } from '../store/row.js';
import { JOB_COLUMNS } from '../store/schema.js';
import { serveTasks } from '../util/tasks.js';

/**
 * The web service's decoding thread: one log (uploaded bytes, or a stored job's log file) → its report with charts
 * (`iolens report --json --charts`) and its `jobs` row (the projection `iolens ingest` stores), both as JSON text so
 * that nothing but strings crosses back to the HTTP thread.
 */
export type DiagnoseTask =
  | { readonly kind: 'bytes'; readonly name: string; readonly bytes: Uint8Array }
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'trace'; readonly name: string; readonly bytes: Uint8Array };

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
async function traceReport(name: string, bytes: Uint8Array, maxInflate: number | undefined): Promise<DiagnoseResult> {
  if (bytes.length === 0) throw new InputError(`${name}: empty upload (no bytes)`);
  const dir = mkdtempSync(join(tmpdir(), 'iolens-trace-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    const report = await diagnoseTrace([file], { charts: true, ...(maxInflate !== undefined ? { limits: { maxInflate } } : {}) });
    return { hash: '', report: JSON.stringify({ ...report, input: { ...report.input, paths: [name] } }).split(`${dir}/`).join(''), row: '' };
  } catch (err) {
    // the upload is named as the client named it: the server's temporary folder stays out of the answer
    if (err instanceof Error) err.message = err.message.split(`${dir}/`).join('').split(dir).join('(upload)');
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

serveTasks<DiagnoseTask, DiagnoseResult>((task, data) => {
  const d = (data ?? {}) as DiagnoseWorkerData;
  if (task.kind === 'trace') return traceReport(task.name, task.bytes, d.maxInflate);
  const opts = { charts: true, ...(d.maxInflate !== undefined ? { maxInflate: d.maxInflate } : {}) };
  if (task.kind === 'bytes' && task.bytes.length === 0) throw new InputError(`${task.name}: empty upload (no bytes)`);
  const x = extract(task.kind === 'bytes' ? { path: task.name, bytes: task.bytes } : task.path, opts);
  return { hash: x.row.hash as string, report: JSON.stringify(x.report), row: rowToJson(JOB_COLUMNS, projectRow(x.row, Date.now())) };
});
