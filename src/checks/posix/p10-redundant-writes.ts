import { redundantTraffic } from '../families/redundant-traffic.js';

/** P10: redundant write traffic (WARN). */
export default redundantTraffic('P10', 'write');
