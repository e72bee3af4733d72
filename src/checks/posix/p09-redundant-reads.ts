import { redundantTraffic } from '../families/redundant-traffic.js';

/** P09: redundant read traffic (WARN). */
export default redundantTraffic('P09', 'read');
