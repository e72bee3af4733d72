import { nonBlocking } from '../families/non-blocking.js';

/** M07: no non-blocking MPI-IO writes (WARN). */
export default nonBlocking('M07', 'write');
