import { defineFact } from './define-fact.js';
import { groupAllById } from './group.js';
import { nameText as utf8 } from '../formats/darshan/names.js';

export default defineFact({
  name: 'log',
  description:
    'The log itself: format version, compression, runtime version, job metadata, modules flagged partial, regions that failed to decode, file-system types of the POSIX files.',
  compute(src) {
    const log = src.log;
    const metadata: [string, string][] = log.job.metadata.map(([k, v]) => [utf8(k), utf8(v)]);
    const lib = metadata.filter(([k]) => k === 'lib_ver').pop();
    const slots = log.slots();
    const decodeErrors: string[] = [];
    for (const s of slots) {
      if (s.region.len === 0 || !s.name) continue;
      let error: string | null;
      try {
        error = log.decodeError ? log.decodeError(s.name) : (log.decode(s.name)?.error ?? null);
      } catch (err) {
        error = err instanceof Error ? err.message.split('\n')[0] : String(err);
      }
      if (error) decodeErrors.push(`${s.name}: ${error}`);
    }
    const fsTypes = new Set<string>();
    const posix = log.has('POSIX') ? src.fixed('POSIX') : null;
    if (posix) {
      for (const name of log.names.getAll(groupAllById(posix.ids).keys)) {
        const m = log.mountOf(name);
        if (m) fsTypes.add(m.fsType);
      }
    }
    return {
      formatVersion: log.header.versionString,
      compression: log.compressionName,
      runtimeVersion: lib ? lib[1] : null,
      metadata,
      partialModules: slots.filter((s) => s.partial).map((s) => s.name ?? `module-${s.id}`),
      decodeErrors,
      fsTypes: [...fsTypes].sort(),
    };
  },
});
