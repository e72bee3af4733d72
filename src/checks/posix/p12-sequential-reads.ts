import { sequentialAccess } from '../families/random-access.js';

/** P12: POSIX reads are mostly consecutive or sequential (OK). */
export default sequentialAccess('P12', 'read');
