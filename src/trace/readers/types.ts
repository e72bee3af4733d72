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
