import { collectiveUse } from '../families/collective.js';

/** M04: MPI-IO reads use collective calls (OK). */
export default collectiveUse('M04', 'read');
