import { rankSpread } from '../families/rank-spread.js';

/** P21: write imbalance between the ranks of individual files (HIGH). */
export default rankSpread('P21', 'write');
