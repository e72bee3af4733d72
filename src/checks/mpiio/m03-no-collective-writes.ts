import { missingCollectives } from '../families/collective.js';

/** M03: MPI-IO writes never collective (HIGH). */
export default missingCollectives('M03', 'write');
