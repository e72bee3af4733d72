import type { Report } from '../contract/index.js';
import { analyzeTrace, type AnalyzeOptions } from './trace/analyze.js';
import { toolVersion } from './resources.js';
import { traceTimeline } from './trace-timeline.js';

export type DiagnoseTraceOptions = Omit<AnalyzeOptions, 'toolVersion'> & {
  /** Add the `charts` section: the trace's timeline (the other plots need a Darshan log's counters). */
  readonly charts?: boolean;
};

/**
 * Analyses a trace (DXT in a Darshan log, a Recorder folder, DFTracer `.pfw`/`.pfw.gz` files, Recorder Parquet, or a
 * `.tar`/`.tar.gz` of one) from every perspective — files, processes, time windows and their combinations — and
 * returns the report `iolens trace --json` prints: the contract's Report with its `trace` section and the trace
 * checks' findings. (`reportFromTrace` instead runs the Darshan checks on counters derived from the events.)
 */
export async function diagnoseTrace(paths: readonly string[], options: DiagnoseTraceOptions = {}): Promise<Report> {
  const { charts, ...analyze } = options;
  const a = await analyzeTrace(paths, { ...analyze, toolVersion: toolVersion() });
  if (!charts) return a.report;
  const timeline = traceTimeline(a.cube, a.report.trace?.options.granularity ?? 0);
  return { ...a.report, charts: { ioTime: [], operations: [], accessSizes: [], files: [], heatmap: null, dxt: [], timeline } };
}
