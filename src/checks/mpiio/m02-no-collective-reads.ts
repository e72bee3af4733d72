import { missingCollectives } from '../families/collective.js';

/** M02: MPI-IO reads never collective (HIGH). */
export default missingCollectives('M02', 'read');
