import { defineFact } from './define-fact.js';

export default defineFact({
  name: 'modules',
  description: 'Names of the instrumentation modules with data in the log, in module id order (`module-N` for ids IOLens does not know).',
  compute({ log }) {
    const names: string[] = [];
    for (const s of log.slots()) if (s.region.len > 0) names.push(s.name ?? `module-${s.id}`);
    return { names };
  },
});
