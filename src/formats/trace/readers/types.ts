/** What a reader reports besides the events themselves. */
export interface ReadResult {
  format: 'dftracer' | 'recorder' | 'recorder-parquet' | 'dxt';
  /** Events delivered to the sink. */
  events: number;
  /** Input units read (files for DFTracer and Parquet, rank files for Recorder, records for DXT). */
  sources: number;
  /** Non-fatal problems (missing ranks, truncated DXT data, …), one sentence each. */
  warnings: string[];
  /** Origin of the time column in seconds since the Unix epoch, when known (Recorder, DXT). */
  timeOrigin?: number;
  /** Format-specific statistics (JSON-serialisable). */
  details?: Record<string, unknown>;
}

/** What a trace says about its job (a DXT log's job record, a Recorder folder's rank count…); absent fields are unknown. */
export interface TraceJob {
  readonly jobId?: string;
  /** The whole command line. */
  readonly command?: string;
  readonly uid?: string;
  /** Processes of the job (may exceed the processes whose calls are in the trace). */
  readonly processes?: number;
}
