import { rankSpread } from '../families/rank-spread.js';

/** P22: read imbalance between the ranks of individual files (HIGH). */
export default rankSpread('P22', 'read');
