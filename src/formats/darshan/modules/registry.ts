import type { ModuleCodec, ModuleTable } from '../module-types.js';
import posix from './posix.js';
import mpiio from './mpi-io.js';
import h5f from './h5f.js';
import h5d from './h5d.js';
import pnetcdfFile from './pnetcdf-file.js';
import pnetcdfVar from './pnetcdf-var.js';
import bgq from './bg-q.js';
import lustre from './lustre.js';
import stdio from './stdio.js';
import { dxtPosix, dxtMpiio } from './dxt.js';
import mdhim from './mdhim.js';
import apxc from './apxc.js';
import apmpi from './apmpi.js';
import heatmap from './heatmap.js';
import dfs from './dfs.js';
import daos from './daos.js';

/** One row per Darshan module id, in id order (darshan-util's DARSHAN_MODULE_IDS). */
export interface ModuleRow {
  readonly id: number;
  readonly name: string;
  /** null: a known module with nothing to decode (NULL, the example module, is never written). */
  readonly codec: ModuleCodec<ModuleTable> | null;
}

const row = (id: number, name: string, codec: ModuleCodec<any> | null): ModuleRow => {
  if (codec && (codec.id !== id || codec.name !== name)) throw new Error(`module registry: row ${id} ${name} holds ${codec.id} ${codec.name}`);
  return { id, name, codec };
};

/** Every module id darshan-util knows, ids 0..17. Ids 18..63 are unknown. */
export const MODULES: readonly ModuleRow[] = [
  row(0, 'NULL', null),
  row(1, 'POSIX', posix),
  row(2, 'MPI-IO', mpiio),
  row(3, 'H5F', h5f),
  row(4, 'H5D', h5d),
  row(5, 'PNETCDF_FILE', pnetcdfFile),
  row(6, 'PNETCDF_VAR', pnetcdfVar),
  row(7, 'BG/Q', bgq),
  row(8, 'LUSTRE', lustre),
  row(9, 'STDIO', stdio),
  row(10, 'DXT_POSIX', dxtPosix),
  row(11, 'DXT_MPIIO', dxtMpiio),
  row(12, 'MDHIM', mdhim),
  row(13, 'APXC', apxc),
  row(14, 'APMPI', apmpi),
  row(15, 'HEATMAP', heatmap),
  row(16, 'DFS', dfs),
  row(17, 'DAOS', daos),
];

export type ModuleName = (typeof MODULES)[number]['name'];

const byName = new Map(MODULES.map((m) => [m.name, m]));

export function moduleByName(name: string): ModuleRow | undefined {
  return byName.get(name);
}

