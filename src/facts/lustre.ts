import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'lustre',
  description: 'Whether the log has Lustre striping records (LUSTRE module).',
  compute({ log }) {
    return log.has('LUSTRE') ? { records: 1 } : null;
  },
});
