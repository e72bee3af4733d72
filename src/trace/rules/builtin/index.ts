import type { Rule } from '../types.js';
import { excessiveMetadata } from './excessive-metadata.js';
import { fsyncHeavy } from './fsync-heavy.js';
import { manyFiles } from './many-files.js';
import { operationImbalance } from './operation-imbalance.js';
import { randomAccess } from './random-access.js';
import { rankDominates } from './rank-dominates.js';
import { sharedFile } from './shared-file.js';
import { sizeImbalance } from './size-imbalance.js';
import { slowCalls } from './slow-calls.js';
import { smallReads } from './small-reads.js';
import { smallWrites } from './small-writes.js';

/** Every built-in rule, in report order. Ids must be unique (checked by the tests). */
export const BUILTIN_RULES: readonly Rule[] = [
  excessiveMetadata,
  operationImbalance,
  sizeImbalance,
  smallReads,
  smallWrites,
  randomAccess,
  rankDominates,
  sharedFile,
  fsyncHeavy,
  manyFiles,
  slowCalls,
];
