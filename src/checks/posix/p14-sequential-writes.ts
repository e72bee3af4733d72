import { sequentialAccess } from '../families/random-access.js';

/** P14: POSIX writes are mostly consecutive or sequential (OK). */
export default sequentialAccess('P14', 'write');
