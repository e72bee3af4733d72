import { firstOpRandomAccess } from '../families/first-op-random-access.js';

/** D17: random POSIX reads, each rank's first request not counted (default mode; supersedes P11). */
export default firstOpRandomAccess('D17', 'read', ['P11']);
