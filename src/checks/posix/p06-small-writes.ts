import { smallRequests } from '../families/small-requests.js';

/** P06: many small POSIX writes (HIGH). */
export default smallRequests('P06', 'write');
