/**
 * How IOLens output is compared with darshan-parser's stored outputs (FORMAT.md §10 "How to compare"): every line
 * that does not start with `#` (blank lines aside) must be identical and in order, and so must every `#` line that
 * carries data. darshan-parser's explanatory prose is not compared.
 */

const DATA_COMMENT = [
  /^# darshan log version: /,
  /^# compression method: /,
  /^# exe: /,
  /^# uid: /,
  /^# jobid: /,
  /^# start_time: /,
  /^# start_time_asci: /,
  /^# end_time: /,
  /^# end_time_asci: /,
  /^# nprocs: /,
  /^# run time: /,
  /^# metadata: /,
  /^# header: /,
  /^# job data: /,
  /^# record table: /,
  /^# .+ module( \(id \d+\))?: \d+ bytes \(compressed\), ver=/,
  /^# mount entry:\t/,
  /^# \S+ module data$/,
  /^# no module data available\.$/,
  /^# no DXT module data available for this Darshan log\.$/,
  // --perf
  /^# total_bytes: /,
  /^# unique files: /,
  /^# shared files: /,
  /^# agg_time_by_slowest: /,
  /^# agg_perf_by_slowest: /,
  // darshan-dxt-parser
  /^# DXT, /,
  /^#\t\[Component \d+\] /,
];

/** Job-header lines that hold the job record's values (and the run time derived from them). */
export const JOB_RECORD_LINE = /^# (exe|uid|jobid|start_time|start_time_asci|end_time|end_time_asci|nprocs|run time|metadata): /;

/** The lines a comparison looks at, in order. Works on raw (latin1) text. */
export function comparableLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line[0] !== '#') out.push(line);
    else if (DATA_COMMENT.some((re) => re.test(line))) out.push(line);
  }
  return out;
}

/** null when equal; otherwise a one-line description of the first difference. */
export function firstDifference(ours: string, theirs: string): string | null {
  const a = comparableLines(ours);
  const b = comparableLines(theirs);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return `line ${i + 1} of ${b.length}: expected ${JSON.stringify(b[i].slice(0, 160))}, got ${JSON.stringify(a[i].slice(0, 160))}`;
  }
  if (a.length !== b.length) {
    return a.length < b.length
      ? `missing lines from ${a.length + 1} of ${b.length}: expected ${JSON.stringify(b[a.length].slice(0, 160))}`
      : `extra lines from ${b.length + 1}: got ${JSON.stringify(a[b.length].slice(0, 160))}`;
  }
  return null;
}
