import type { AnyCheck } from './types.js';
import d01SyncPerWrite from './diagnosis/d01-sync-per-write.js';
import d02StridedAccess from './diagnosis/d02-strided-access.js';
import d03SingleRankIo from './diagnosis/d03-single-rank-io.js';
import d04ReadWriteSwitches from './diagnosis/d04-read-write-switches.js';
import d05ReadModifyWrite from './diagnosis/d05-read-modify-write.js';
import d06FileReread from './diagnosis/d06-file-reread.js';
import d07MetadataLoad from './diagnosis/d07-metadata-load.js';
import d08ManySmallFiles from './diagnosis/d08-many-small-files.js';
import d09StdioSmallRecords from './diagnosis/d09-stdio-small-records.js';
import d10SmallWritesByLayer from './diagnosis/d10-small-writes-by-layer.js';
import d11SmallReadsByLayer from './diagnosis/d11-small-reads-by-layer.js';
import d12MisalignedBlocks from './diagnosis/d12-misaligned-blocks.js';
import d13RankTimeImbalance from './diagnosis/d13-rank-time-imbalance.js';
import d14SharedFileRankImbalance from './diagnosis/d14-shared-file-rank-imbalance.js';
import d15IndependentMpiio from './diagnosis/d15-independent-mpiio.js';
import d16RandomWrites from './diagnosis/d16-random-writes.js';
import d17RandomReads from './diagnosis/d17-random-reads.js';
import d18IoPhases from './diagnosis/d18-io-phases.js';
import d19Hdf5PnetcdfMetadata from './diagnosis/d19-hdf5-pnetcdf-metadata.js';
import d20TimeSink from './diagnosis/d20-time-sink.js';
import d21SlowStorageTarget from './diagnosis/d21-slow-storage-target.js';
import d22StripeSettings from './diagnosis/d22-stripe-settings.js';

/**
 * The diagnosis checks (issue 5): default mode only, each tagged with a problem and graded by cost. Several supersede
 * a Drishti check in the default mode (`meta.supersedes`); `--drishti` never runs them. An explicit list: the
 * meta-test proves it matches the files of `diagnosis/`.
 */
export const DIAGNOSIS_CHECKS: readonly AnyCheck[] = [
  d01SyncPerWrite,
  d02StridedAccess,
  d03SingleRankIo,
  d04ReadWriteSwitches,
  d05ReadModifyWrite,
  d06FileReread,
  d07MetadataLoad,
  d08ManySmallFiles,
  d09StdioSmallRecords,
  d10SmallWritesByLayer,
  d11SmallReadsByLayer,
  d12MisalignedBlocks,
  d13RankTimeImbalance,
  d14SharedFileRankImbalance,
  d15IndependentMpiio,
  d16RandomWrites,
  d17RandomReads,
  d18IoPhases,
  d19Hdf5PnetcdfMetadata,
  d20TimeSink,
  d21SlowStorageTarget,
  d22StripeSettings,
];
