import { defineFact } from './define-fact.js';
import { groupAllById } from './group.js';
import type { FixedTable } from '../formats/darshan/index.js';
import type { CounterInput } from './source.js';

/** Distinct ids of a table that have a name record (Drishti walks the name records). */
function namedIds(log: CounterInput, t: FixedTable | null): number {
  if (!t) return 0;
  let n = 0;
  for (const name of log.names.getAll(groupAllById(t.ids).keys)) if (name !== null) n++;
  return n;
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
