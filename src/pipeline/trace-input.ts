import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveSource } from '../formats/trace/readers/index.js';
import { isTarName } from '../formats/trace/readers/tar.js';

const TRACE_FILE = /\.pfw(\.gz)?$|\.parquet$/i;

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

/**
 * Whether `iolens report` was given one trace rather than Darshan logs: DFTracer `.pfw`/`.pfw.gz` or Parquet files,
 * a tar archive (traces come archived; logs do not), or folders that hold a trace (a Recorder folder with
 * `recorder.mt`, Parquet files, DFTracer files). A folder of Darshan logs is not a trace: it is walked for logs.
 */
export function isTraceInput(paths: readonly string[]): boolean {
  if (paths.length === 0) return false;
  if (paths.length === 1 && isTarName(paths[0])) return true;
  if (paths.every((p) => TRACE_FILE.test(p) && !isDir(p))) return true;
  if (!paths.every(isDir)) return false;
  try {
    resolveSource(paths);
    return true;
  } catch {
    return false;
  }
}

/** The file stem of a trace's report under --export-dir: the folder or first file name without its extension. */
export function traceStem(paths: readonly string[]): string {
  return basename(paths[0].replace(/\/+$/, '')).replace(/\.(pfw(\.gz)?|parquet|tar(\.gz)?|tgz)$/i, '') || 'trace';
}
