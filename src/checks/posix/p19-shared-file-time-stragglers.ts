import { stragglers } from '../families/stragglers.js';

/** P19: time imbalance between the slowest and fastest rank of shared files (HIGH). */
export default stragglers('P19', 'time');
