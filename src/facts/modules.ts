import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'modules',
  description: 'Names of the instrumentation modules with data in the log, in module id order.',
  compute({ log }) {
    const names: string[] = [];
    for (const s of log.slots()) if (s.region.len > 0 && s.name) names.push(s.name);
    return { names };
  },
});
