import { aggregators } from '../families/aggregators.js';

/** M08: fewer MPI-IO aggregators than compute nodes (OK). */
export default aggregators('M08', 'fewer');
