import { collectiveUse } from '../families/collective.js';

/** M05: MPI-IO writes use collective calls (OK). */
export default collectiveUse('M05', 'write');
