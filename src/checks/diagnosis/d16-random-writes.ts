import { firstOpRandomAccess } from '../families/first-op-random-access.js';

/** D16: random POSIX writes, each rank's first request not counted (default mode; supersedes P13). */
export default firstOpRandomAccess('D16', 'write', ['P13']);
