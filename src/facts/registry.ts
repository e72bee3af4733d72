import type { FactDefinition } from './define-fact.js';
import type { FactName } from './types.js';
import accessSizes from './access-sizes.js';
import completeness from './completeness.js';
import dxtPosixRanks from './dxt-ranks.js';
import dxtSegments from './dxt-segments.js';
import dxtWrites from './dxt-writes.js';
import filesCounts from './file-counts.js';
import hdf5 from './hdf5.js';
import hints from './hints.js';
import hlFiles from './hl-files.js';
import hlOpens from './hl-opens.js';
import ioSummary from './io-summary.js';
import ioTime from './io-time.js';
import heatmapSeries from './heatmap-series.js';
import heatmapTimeline from './heatmap-timeline.js';
import job from './job.js';
import lustre from './lustre.js';
import lustreStripes from './lustre-stripes.js';
import logInfo from './log-info.js';
import modules from './modules.js';
import moduleFiles from './module-files.js';
import moduleOperations from './module-operations.js';
import modulesTotals from './module-totals.js';
import mpiioFiles from './mpiio-files.js';
import mpiioRecords from './mpiio-records.js';
import mpiioTotals from './mpiio-totals.js';
import posixByFile from './posix-by-file.js';
import posixCounterTotals from './posix-counter-totals.js';
import posixFiles from './posix-files.js';
import posixMetaTime from './posix-meta-time.js';
import posixRankSpread from './posix-rank-spread.js';
import posixShared from './posix-shared.js';
import posixTotals from './posix-totals.js';
import ioRankBytes from './rank-bytes.js';
import ioSharedRankBytes from './shared-rank-bytes.js';
import stdioFiles from './stdio-files.js';
import storageTargets from './storage-targets.js';
import stdioTotals from './stdio-totals.js';

/** Every fact, by name (an explicit map: a meta-test checks it against the files of this folder). */
export const FACTS: { readonly [K in FactName]: FactDefinition<K> } = {
  completeness,
  'dxt.posixRanks': dxtPosixRanks,
  'dxt.segments': dxtSegments,
  'dxt.writes': dxtWrites,
  'files.counts': filesCounts,
  hdf5,
  'heatmap.series': heatmapSeries,
  'heatmap.timeline': heatmapTimeline,
  hints,
  'hl.files': hlFiles,
  'hl.opens': hlOpens,
  'io.rankBytes': ioRankBytes,
  'io.sharedRankBytes': ioSharedRankBytes,
  'io.summary': ioSummary,
  'io.time': ioTime,
  job,
  lustre,
  'lustre.stripes': lustreStripes,
  log: logInfo,
  modules,
  'modules.accessSizes': accessSizes,
  'modules.files': moduleFiles,
  'modules.operations': moduleOperations,
  'modules.totals': modulesTotals,
  'mpiio.files': mpiioFiles,
  'mpiio.records': mpiioRecords,
  'mpiio.totals': mpiioTotals,
  'posix.byFile': posixByFile,
  'posix.counterTotals': posixCounterTotals,
  'posix.files': posixFiles,
  'posix.metaTime': posixMetaTime,
  'posix.rankSpread': posixRankSpread,
  'posix.shared': posixShared,
  'posix.totals': posixTotals,
  'stdio.files': stdioFiles,
  'stdio.totals': stdioTotals,
  'storage.targets': storageTargets,
};
