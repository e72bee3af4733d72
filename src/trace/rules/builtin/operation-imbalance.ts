import { type Rule } from '../types.js';
import { formatCount } from '../../../text/format.js';

/** Some process issues far more operations than the average process of the record. */
export const operationImbalance: Rule = {
  id: 'operation-imbalance',
  title: 'Operation imbalance',
  description: 'with ≥ 2 processes, the busiest process issues more than 2× the mean number of operations',
  source: 'builtin',
  explain(m) {
    if (m.nprocs >= 2 && m.proc_ops_imbalance > 2) {
      return [`operations are imbalanced across ${formatCount(m.nprocs)} processes: the busiest issues ${m.proc_ops_imbalance.toFixed(1)}× the mean`];
    }
    return [];
  },
};
