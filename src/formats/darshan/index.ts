/** Public surface of the Darshan reader. */
export { DarshanLog, type ModuleSlotInfo, type OpenOptions } from './log.js';
export { DarshanFormatError } from './errors.js';
export type { LogHeader, Region, ByteOrder } from './header.js';
export type { JobRecord, MountEntry } from './job.js';
export type { NameTable } from './names.js';
export type { ModuleTable, ModuleCodec, DecodeOutcome } from './module-types.js';
export { FixedTable } from './modules/fixed-codec.js';
export type { DxtTable } from './modules/dxt.js';
export type { LustreTable } from './modules/lustre.js';
export type { HeatmapTable } from './modules/heatmap.js';
export type { MdhimTable } from './modules/mdhim.js';
export type { ApmpiTable } from './modules/apmpi.js';
export type { ApxcTable } from './modules/apxc.js';
export { MODULES, moduleByName } from './modules/registry.js';
export { Int64Block } from './int64-block.js';

import { DarshanLog, type OpenOptions } from './log.js';
/** Opens a Darshan log file (see DarshanLog.open). */
export function openDarshanLog(path: string, opts: OpenOptions = {}): DarshanLog {
  return DarshanLog.open(path, opts);
}
