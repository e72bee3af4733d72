import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TraceInputError } from '../errors.js';
import { sortParquetParts } from './parquet.js';

/** A resolved trace input: which reader and which files. */
export type TraceSource =
  | { format: 'dftracer'; files: string[] }
  | { format: 'recorder'; dir: string }
  | { format: 'recorder-parquet'; dir: string | null; files: string[] }
  | { format: 'dxt'; file: string };

const PFW = /\.pfw(\.gz)?$/;
const PARQUET = /\.parquet$/i;

function listParquet(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && PARQUET.test(e.name) && !e.name.startsWith('.'))
    .map((e) => join(dir, e.name));
}

function listPfw(dir: string, out: string[], depth = 0): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && depth < 4) listPfw(p, out, depth + 1);
    else if (e.isFile() && PFW.test(e.name)) out.push(p);
  }
}

/**
 * Decides the format from the paths: a folder with `recorder.mt` is a Recorder trace; a folder of `.parquet` files
 * (or `.parquet` files) is a Recorder trace converted to Parquet; `.pfw`/`.pfw.gz` files, or folders holding them,
 * are DFTracer; any other single file is read as a Darshan log (DXT). Tar archives are unpacked before this
 * (see `analyzeTrace`).
 */
export function resolveSource(paths: readonly string[]): TraceSource {
  if (paths.length === 0) throw new TraceInputError('no trace given');
  for (const p of paths) if (!existsSync(p)) throw new TraceInputError(`${p}: no such file or directory`);
  if (paths.length === 1 && statSync(paths[0]).isDirectory()) {
    const dir = paths[0];
    if (existsSync(join(dir, 'recorder.mt'))) return { format: 'recorder', dir };
    const parts = listParquet(dir);
    if (parts.length > 0) return { format: 'recorder-parquet', dir, files: sortParquetParts(parts) };
    const files: string[] = [];
    listPfw(dir, files);
    if (files.length > 0) return { format: 'dftracer', files: files.sort() };
    throw new TraceInputError(`${dir}: neither a Recorder trace folder (no recorder.mt), a folder of Parquet files, nor a folder of DFTracer .pfw/.pfw.gz files`);
  }
  if (paths.every((p) => PARQUET.test(p) && !statSync(p).isDirectory())) return { format: 'recorder-parquet', dir: null, files: [...paths] };
  const files: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      const before = files.length;
      listPfw(p, files);
      if (files.length === before) throw new TraceInputError(`${p}: no DFTracer .pfw/.pfw.gz files in this folder`);
    } else if (PFW.test(p)) files.push(p);
    else if (paths.length === 1) return { format: 'dxt', file: p };
    else throw new TraceInputError(`${p}: only DFTracer files (.pfw, .pfw.gz) can be combined`);
  }
  return { format: 'dftracer', files };
}
