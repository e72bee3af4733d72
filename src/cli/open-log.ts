import type { DarshanLog } from '../formats/darshan/log.js';
import { openLog } from '../pipeline/open.js';

/** Opens a log for a command: every read failure is one library error line naming the file (exit 2). */
export function openLogOrExit(path: string): DarshanLog {
  return openLog(path);
}
