import { sharedSmallRequests } from '../families/shared-small-requests.js';

/** P16: many small writes to shared files (HIGH). */
export default sharedSmallRequests('P16', 'write');
