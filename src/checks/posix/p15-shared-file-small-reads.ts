import { sharedSmallRequests } from '../families/shared-small-requests.js';

/** P15: many small reads to shared files (HIGH). */
export default sharedSmallRequests('P15', 'read');
