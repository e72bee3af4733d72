import { parentPort, workerData } from 'node:worker_threads';
import { logToRow, withJson, type RowResult } from './row.js';

/** A batch of files for one worker. */
export interface IngestTask {
  id: number;
  paths: string[];
}

export interface IngestReply {
  id: number;
  results: RowResult[];
}

export interface IngestWorkerData {
  files: boolean;
  /** Run the checks (false with `ingest --no-report`). */
  report: boolean;
}

const data = workerData as IngestWorkerData;
parentPort!.on('message', (task: IngestTask) => {
  // Rows travel as NDJSON text: the writer thread then hands whole batches to DuckDB's JSON reader.
  const results = task.paths.map((p) => {
    const r = withJson(logToRow(p, { files: data.files, report: data.report }));
    if (r.ok) {
      r.row = [];
      r.files = null;
    }
    return r;
  });
  const reply: IngestReply = { id: task.id, results };
  parentPort!.postMessage(reply);
});
