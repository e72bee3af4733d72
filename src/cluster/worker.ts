// Worker thread of the clustering engine: runs the kernels on shared memory, on request from ./pool.ts.
import { parentPort } from 'node:worker_threads';
import { boruvkaQueries, coreKd, primThread } from './kernels.js';
import { atomicChunks, atomicBarrier, type PoolRequest } from './pool.js';

parentPort!.on('message', (req: PoolRequest) => {
  try {
    const chunks = atomicChunks(req.ctl, req.total, req.chunk);
    switch (req.op) {
      case 'coreKd':
        coreKd(req.tree, req.k, req.kept, req.out, req.nbr, req.nbrD, chunks, req.chunk);
        break;
      case 'boruvka':
        boruvkaQueries(req.tree, req.state, chunks, req.chunk);
        break;
      case 'prim':
        primThread(req.state, req.t, req.T, atomicBarrier(req.ctl, req.T));
        break;
    }
    parentPort!.postMessage({ ok: true });
  } catch (e) {
    parentPort!.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
