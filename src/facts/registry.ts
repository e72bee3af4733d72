import type { FactDefinition } from './define-fact.js';
import type { FactName } from './types.js';
import filesCounts from './file-counts.js';
import hdf5 from './hdf5.js';
import hints from './hints.js';
import job from './job.js';
import lustre from './lustre.js';
import modules from './modules.js';
import mpiioRecords from './mpiio-records.js';
import mpiioTotals from './mpiio-totals.js';
import posixByFile from './posix-by-file.js';
import posixMetaTime from './posix-meta-time.js';
import posixRankSpread from './posix-rank-spread.js';
import posixShared from './posix-shared.js';
import posixTotals from './posix-totals.js';
import stdioTotals from './stdio-totals.js';

/** Every fact, by name (an explicit map: a meta-test checks it against the files of this folder). */
export const FACTS: { readonly [K in FactName]: FactDefinition<K> } = {
  'files.counts': filesCounts,
  hdf5,
  hints,
  job,
  lustre,
  modules,
  'mpiio.records': mpiioRecords,
  'mpiio.totals': mpiioTotals,
  'posix.byFile': posixByFile,
  'posix.metaTime': posixMetaTime,
  'posix.rankSpread': posixRankSpread,
  'posix.shared': posixShared,
  'posix.totals': posixTotals,
  'stdio.totals': stdioTotals,
};
