import { parentPort, workerData } from 'node:worker_threads';
import { selectMlp, type SelectionData } from './select.js';

// Runs the MLP's selection and refit on a second core while the main thread trains the other families.
if (parentPort) {
  const port = parentPort;
  selectMlp(workerData as SelectionData).then(
    (result) => port.postMessage({ ok: true, result }),
    (e: unknown) => port.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) }),
  );
}
