import { stragglers } from '../families/stragglers.js';

/** P18: data imbalance between the slowest and fastest rank of shared files (HIGH). */
export default stragglers('P18', 'data');
