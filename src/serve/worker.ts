import { InputError } from '../contract/errors.js';
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
  | { readonly kind: 'path'; readonly path: string };

export interface DiagnoseResult {
  readonly hash: string;
  /** The report JSON. */
  readonly report: string;
  /** The `jobs` row as one NDJSON line (`rowToJson`). */
  readonly row: string;
}

export interface DiagnoseWorkerData {
  /** Decompression budget of one log (bytes). */
  readonly maxInflate?: number;
}

serveTasks<DiagnoseTask, DiagnoseResult>((task, data) => {
  const d = (data ?? {}) as DiagnoseWorkerData;
  const opts = { charts: true, ...(d.maxInflate !== undefined ? { maxInflate: d.maxInflate } : {}) };
  if (task.kind === 'bytes' && task.bytes.length === 0) throw new InputError(`${task.name}: empty upload (no bytes)`);
  const x = extract(task.kind === 'bytes' ? { path: task.name, bytes: task.bytes } : task.path, opts);
  return { hash: x.row.hash as string, report: JSON.stringify(x.report), row: rowToJson(JOB_COLUMNS, projectRow(x.row, Date.now())) };
});
