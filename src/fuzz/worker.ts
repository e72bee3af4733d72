import { runInput, type FuzzInput, type TargetName } from './targets.js';

/** Fuzz runner process: runs the inputs it is sent, one at a time, and sends each outcome back. */
process.on('message', (msg: { id: number; target: TargetName; input: FuzzInput }) => {
  void runInput(msg.target, msg.input).then((outcome) => process.send!({ id: msg.id, outcome }));
});
