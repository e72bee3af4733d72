import { defineFact } from './define-fact.js';
import type { ModuleCompleteness } from './types.js';

export default defineFact({
  name: 'completeness',
  description:
    'What the log is missing: modules the runtime flagged partial (it ran out of memory for records, or DXT for trace segments), regions that did not decode, and format versions known to hold corrupted counters.',
  compute(src, facts) {
    const log = src.log;
    const out: ModuleCompleteness[] = [];
    for (const s of log.slots()) {
      if (!s.partial) continue;
      const name = s.name ?? `module-${s.id}`;
      const dxt = name.startsWith('DXT_');
      out.push({
        module: name,
        status: 'partial',
        detail: dxt
          ? 'the DXT trace buffer filled up: calls after that point were not traced'
          : 'the Darshan runtime ran out of memory for this module: records of some files are missing',
      });
    }
    for (const e of facts.get('log').decodeErrors) {
      const colon = e.indexOf(': ');
      out.push({ module: e.slice(0, colon), status: 'damaged', detail: `the region does not decode completely (${e.slice(colon + 2)}): only the records before the damage were read` });
    }
    if (log.header.versionString === '3.20') {
      out.push({ module: 'POSIX', status: 'unreliable', detail: 'logs of Darshan 3.2.0 are known to hold corrupted counter values (COMMON_ACCESS counters at least)' });
    }
    return { complete: out.length === 0, modules: out };
  },
});
