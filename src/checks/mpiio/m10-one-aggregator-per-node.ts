import { aggregators } from '../families/aggregators.js';

/** M10: one MPI-IO aggregator per compute node (OK). */
export default aggregators('M10', 'equal');
