import { nonBlocking } from '../families/non-blocking.js';

/** M06: no non-blocking MPI-IO reads (WARN). */
export default nonBlocking('M06', 'read');
