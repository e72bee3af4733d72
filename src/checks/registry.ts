import type { AnyCheck } from './types.js';
import { DIAGNOSIS_CHECKS } from './diagnosis-registry.js';
import m01MpiioUnused from './mpiio/m01-mpiio-unused.js';
import m02NoCollectiveReads from './mpiio/m02-no-collective-reads.js';
import m03NoCollectiveWrites from './mpiio/m03-no-collective-writes.js';
import m04CollectiveReads from './mpiio/m04-collective-reads.js';
import m05CollectiveWrites from './mpiio/m05-collective-writes.js';
import m06BlockingReads from './mpiio/m06-blocking-reads.js';
import m07BlockingWrites from './mpiio/m07-blocking-writes.js';
import m08IntraNodeAggregators from './mpiio/m08-intra-node-aggregators.js';
import m09InterNodeAggregators from './mpiio/m09-inter-node-aggregators.js';
import m10OneAggregatorPerNode from './mpiio/m10-one-aggregator-per-node.js';
import p01WriteOperationIntensity from './posix/p01-write-operation-intensity.js';
import p02ReadOperationIntensity from './posix/p02-read-operation-intensity.js';
import p03WriteVolumeIntensity from './posix/p03-write-volume-intensity.js';
import p04ReadVolumeIntensity from './posix/p04-read-volume-intensity.js';
import p05SmallReads from './posix/p05-small-reads.js';
import p06SmallWrites from './posix/p06-small-writes.js';
import p07MisalignedMemory from './posix/p07-misaligned-memory.js';
import p08MisalignedFile from './posix/p08-misaligned-file.js';
import p09RedundantReads from './posix/p09-redundant-reads.js';
import p10RedundantWrites from './posix/p10-redundant-writes.js';
import p11RandomReads from './posix/p11-random-reads.js';
import p12SequentialReads from './posix/p12-sequential-reads.js';
import p13RandomWrites from './posix/p13-random-writes.js';
import p14SequentialWrites from './posix/p14-sequential-writes.js';
import p15SharedFileSmallReads from './posix/p15-shared-file-small-reads.js';
import p16SharedFileSmallWrites from './posix/p16-shared-file-small-writes.js';
import p17MetadataTime from './posix/p17-metadata-time.js';
import p18SharedFileDataStragglers from './posix/p18-shared-file-data-stragglers.js';
import p19SharedFileTimeStragglers from './posix/p19-shared-file-time-stragglers.js';
import p21PerRankWriteImbalance from './posix/p21-per-rank-write-imbalance.js';
import p22PerRankReadImbalance from './posix/p22-per-rank-read-imbalance.js';
import s01StdioHeavy from './stdio/s01-stdio-heavy.js';

/**
 * Every check, in evaluation order — Drishti's order (SPEC §1), which is also the order of insights inside each
 * panel. An explicit list: a meta-test proves it matches the check files.
 */
export const CHECKS: readonly AnyCheck[] = [
  s01StdioHeavy,
  m01MpiioUnused,
  p01WriteOperationIntensity,
  p02ReadOperationIntensity,
  p03WriteVolumeIntensity,
  p04ReadVolumeIntensity,
  p05SmallReads,
  p06SmallWrites,
  p07MisalignedMemory,
  p08MisalignedFile,
  p09RedundantReads,
  p10RedundantWrites,
  p11RandomReads,
  p12SequentialReads,
  p13RandomWrites,
  p14SequentialWrites,
  p15SharedFileSmallReads,
  p16SharedFileSmallWrites,
  p17MetadataTime,
  p18SharedFileDataStragglers,
  p19SharedFileTimeStragglers,
  p21PerRankWriteImbalance,
  p22PerRankReadImbalance,
  m02NoCollectiveReads,
  m04CollectiveReads,
  m03NoCollectiveWrites,
  m05CollectiveWrites,
  m06BlockingReads,
  m07BlockingWrites,
  m09InterNodeAggregators,
  m08IntraNodeAggregators,
  m10OneAggregatorPerNode,
  ...DIAGNOSIS_CHECKS,
];

/** Checks by code. */
export const CHECKS_BY_CODE: ReadonlyMap<string, AnyCheck> = new Map(CHECKS.map((c) => [c.meta.code, c]));

