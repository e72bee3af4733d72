import { aggregators } from '../families/aggregators.js';

/** M09: more MPI-IO aggregators than compute nodes (HIGH). */
export default aggregators('M09', 'more');
