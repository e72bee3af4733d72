import { defineFact } from './define-fact.js';
import type { FixedTable } from '../formats/darshan/index.js';
import type { DarshanLog } from '../formats/darshan/index.js';

/** Distinct ids of a table that have a name record (Drishti walks the name records). */
function namedIds(log: DarshanLog, t: FixedTable | null): number {
  if (!t) return 0;
  const seen = new Set<bigint>();
  for (let r = 0; r < t.length; r++) {
    const id = t.ids[r];
    if (!seen.has(id) && log.names.get(id) !== null) seen.add(id);
  }
  return seen.size;
}

export default defineFact({
  name: 'files.counts',
  description: 'Number of file names in the log and of files with STDIO, POSIX and MPI-IO records.',
  compute(src) {
    return {
      total: src.log.names.size,
      stdio: namedIds(src.log, src.fixed('STDIO')),
      posix: namedIds(src.log, src.fixed('POSIX')),
      mpiio: namedIds(src.log, src.fixed('MPI-IO')),
    };
  },
});
