import { randomAccess } from '../families/random-access.js';

/** P13: many random POSIX writes (HIGH). */
export default randomAccess('P13', 'write');
