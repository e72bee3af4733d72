import { parentPort } from 'node:worker_threads';
import { runInput, type FuzzInput, type TargetName } from './targets.js';

/** Fuzz worker: runs the inputs it is sent, one at a time, and posts each outcome back. */
parentPort!.on('message', (msg: { id: number; target: TargetName; input: FuzzInput }) => {
  void runInput(msg.target, msg.input).then((outcome) => parentPort!.postMessage({ id: msg.id, outcome }));
});
