import { FormatError } from './errors.js';
import { REPORT_SCHEMA_VERSION, type Report } from './report.js';
import { upgradeTraceV1 } from './upgrade-trace.js';

/**
 * Brings a report JSON document written by an earlier IOLens up to the current schema, so that stored reports
 * (files, the job store, the web service's cache) stay readable. Each step changes one version into the next;
 * documents of a newer schema are refused.
 *
 * - 1 → 2: Darshan reports gain `input` (format `darshan`, the log name as path, no warnings).
 * - `iolens.trace/1` (the trace reports of `iolens trace` before schema 2, marked by `"schema"`) → 2: see
 *   `upgradeTraceV1`.
 */
export function upgradeReport(doc: unknown): Report {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new FormatError('not an IOLens report (not a JSON object)');
  let d = doc as Record<string, unknown>;
  if (d.schema === 'iolens.trace/1' && d.schemaVersion === undefined) return upgradeTraceV1(d);
  const version = d.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new FormatError('not an IOLens report (no schemaVersion)');
  }
  if (version > REPORT_SCHEMA_VERSION) {
    throw new FormatError(`report schema ${version} is newer than this IOLens understands (${REPORT_SCHEMA_VERSION}); upgrade IOLens`);
  }
  for (let v = version; v < REPORT_SCHEMA_VERSION; v++) d = STEPS[v](d);
  return d as unknown as Report;
}

type Step = (d: Record<string, unknown>) => Record<string, unknown>;

const STEPS: Record<number, Step> = {
  1: (d) => {
    const job = (d.job ?? {}) as Record<string, unknown>;
    const name = typeof job.logName === 'string' && job.logName !== '' ? [job.logName] : [];
    const { schemaVersion: _old, tool, mode, ...rest } = d;
    return { schemaVersion: 2, tool, mode, input: { format: 'darshan', paths: name, warnings: [] }, ...rest };
  },
};
