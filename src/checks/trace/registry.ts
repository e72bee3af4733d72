import type { AnyCheck } from '../types.js';
import { DIAGNOSIS_CHECKS } from '../diagnosis-registry.js';
import t01ExcessiveMetadata from './t01-excessive-metadata.js';
import t02OperationImbalance from './t02-operation-imbalance.js';
import t03SizeImbalance from './t03-size-imbalance.js';
import t04SmallReads from './t04-small-reads.js';
import t05SmallWrites from './t05-small-writes.js';
import t06RandomAccess from './t06-random-access.js';
import t07RankDominates from './t07-rank-dominates.js';
import t08SharedFile from './t08-shared-file.js';
import t09FsyncHeavy from './t09-fsync-heavy.js';
import t10ManyFiles from './t10-many-files.js';
import t11SlowCalls from './t11-slow-calls.js';

/** Every built-in trace check, in evaluation order. An explicit list: a meta-test proves it matches the files. */
export const TRACE_CHECKS: readonly AnyCheck[] = [
  t01ExcessiveMetadata,
  t02OperationImbalance,
  t03SizeImbalance,
  t04SmallReads,
  t05SmallWrites,
  t06RandomAccess,
  t07RankDominates,
  t08SharedFile,
  t09FsyncHeavy,
  t10ManyFiles,
  t11SlowCalls,
];

/** The log checks a trace runs too (`meta.traces`), where their facts exist. */
export const LOG_CHECKS_ON_TRACES: readonly AnyCheck[] = DIAGNOSIS_CHECKS.filter((c) => c.meta.traces === true);

/** What `iolens trace` runs by default: the trace checks, then those log checks. */
export const TRACE_RUN_CHECKS: readonly AnyCheck[] = [...TRACE_CHECKS, ...LOG_CHECKS_ON_TRACES];

/** Built-in trace checks by code. */
export const TRACE_CHECKS_BY_CODE: ReadonlyMap<string, AnyCheck> = new Map(TRACE_CHECKS.map((c) => [c.meta.code, c]));
