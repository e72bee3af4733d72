import { serveTasks } from '../util/tasks.js';
import { logToRow, withJson, type RowResult } from './row.js';

/** A batch of files for one worker. */
export interface IngestTask {
  paths: string[];
}

export interface IngestWorkerData {
  files: boolean;
  /** Run the checks (false with `ingest --no-report`). */
  report: boolean;
  /** Decompression budget of one log. */
  maxInflate?: number;
}

// Rows travel as NDJSON text: the writer thread then hands whole batches to DuckDB's JSON reader.
serveTasks<IngestTask, RowResult[]>((task, data) => {
  const d = data as IngestWorkerData;
  return task.paths.map((p) => {
    const r = withJson(logToRow(p, { files: d.files, report: d.report, ...(d.maxInflate !== undefined ? { maxInflate: d.maxInflate } : {}) }));
    if (r.ok) {
      r.row = [];
      r.files = null;
    }
    return r;
  });
});
