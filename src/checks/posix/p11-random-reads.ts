import { randomAccess } from '../families/random-access.js';

/** P11: many random POSIX reads (HIGH). */
export default randomAccess('P11', 'read');
