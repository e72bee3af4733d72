import { smallRequests } from '../families/small-requests.js';

/** P05: many small POSIX reads (HIGH). */
export default smallRequests('P05', 'read');
