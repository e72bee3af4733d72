import { parentPort, workerData } from 'node:worker_threads';
import { loadAnalyzers } from './analysis.js';
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
  iolensVersion: string;
  maxInflate?: number;
}

const data = workerData as IngestWorkerData;
const analyzersReady = loadAnalyzers();

parentPort!.on('message', (task: IngestTask) => {
  void analyzersReady.then((analyzers) => {
    // Rows travel as NDJSON text: the writer thread then hands whole batches to DuckDB's JSON reader.
    const results = task.paths.map((p) => {
      const r = withJson(logToRow(p, { files: data.files, analyzers, iolensVersion: data.iolensVersion, maxInflate: data.maxInflate }));
      if (r.ok) {
        r.row = [];
        r.files = null;
      }
      return r;
    });
    const reply: IngestReply = { id: task.id, results };
    parentPort!.postMessage(reply);
  });
});
