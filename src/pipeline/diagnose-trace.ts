import type { Report } from '../contract/index.js';
import { analyzeTrace, type AnalyzeOptions } from '../trace/analyze.js';
import { toolVersion } from './resources.js';

export type DiagnoseTraceOptions = Omit<AnalyzeOptions, 'toolVersion'>;

/**
 * Analyses a trace (DXT in a Darshan log, a Recorder folder, DFTracer `.pfw`/`.pfw.gz` files, Recorder Parquet, or a
 * `.tar`/`.tar.gz` of one) from every perspective — files, processes, time windows and their combinations — and
 * returns the report `iolens trace --json` prints: the contract's Report with its `trace` section and the trace
 * checks' findings. (`reportFromTrace` instead runs the Darshan checks on counters derived from the events.)
 */
export async function diagnoseTrace(paths: readonly string[], options: DiagnoseTraceOptions = {}): Promise<Report> {
  return (await analyzeTrace(paths, { ...options, toolVersion: toolVersion() })).report;
}
