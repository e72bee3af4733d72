import { defineCheck } from '../define-check.js';
import { jobBytes } from '../families/diagnosis-common.js';

/**
 * D09: bulk data goes through STDIO in small records. Standard streams are left out (every log has a `<STDOUT>`
 * record). Large fwrite()s go almost straight to write(); small fprintf records are what costs.
 */
export default defineCheck({
  meta: {
    code: 'D09',
    slug: 'stdio-small-records',
    title: 'STDIO carries little data, or in large records',
    failureTitle: 'Bulk data through STDIO in small records',
    description:
      'fprintf/fwrite of small records spends CPU on formatting and copying into a 4 KiB libc buffer per stream, and ' +
      'cannot use parallel I/O. Formatting into a large memory buffer (or writing binary with MPI-IO/HDF5) moves the same data far faster.',
    panel: 'OPERATIONS',
    layer: 'STDIO',
    scope: 'job',
    level: 'HIGH',
    problem: 'stdio-heavy',
    requires: ['stdio.files'],
    modes: ['default'],
    supersedes: ['S01'],
    options: {
      share: { knob: 'interface_stdio', description: "STDIO share of the job's bytes." },
      record: { knob: 'stdio_record_bytes', description: 'Mean STDIO request size under which records are small.' },
      min: { knob: 'stdio_min', description: 'Minimum STDIO requests.' },
      minBytes: { knob: 'io_bytes_min', description: 'Minimum bytes moved through STDIO.' },
    },
    messages: { stdio: 'STDIO moves {share:pct} of the data ({bytes:bytes}) in {ops} requests of {record:bytes} on average' },
    recommendations: {
      buffer: { text: 'Format records into a large memory buffer and write it with one write() (or enlarge the stream buffer with setvbuf)', snippet: 'stdio-large-buffer.c' },
      parallel: { text: 'For bulk data, write binary through MPI-IO, HDF5 or PnetCDF instead of text streams', snippet: 'mpi-io-collective-write.c' },
    },
    compat: { differences: [{ id: 'records', description: 'Drishti (S01) fires on the STDIO share of bytes alone, counting the standard streams; this check leaves them out and needs small records.' }] },
  },
  run(ctx) {
    const s = ctx.fact('stdio.files');
    let bytes = 0, ops = 0, seconds = 0, readBytes = 0;
    for (let i = 0; i < s.ids.length; i++) {
      bytes += Math.max(0, s.bytesRead[i]) + Math.max(0, s.bytesWritten[i]);
      readBytes += Math.max(0, s.bytesRead[i]);
      ops += Math.max(0, s.reads[i]) + Math.max(0, s.writes[i]);
      // The streams' read and write calls (their opens and closes are no record-size matter).
      seconds += Math.max(0, s.readTime[i]) + Math.max(0, s.writeTime[i]);
    }
    const total = jobBytes(ctx);
    const share = total ? bytes / total : 0;
    const record = ops ? bytes / ops : 0;
    const o = ctx.options;
    if (!(ops >= o.min && bytes >= o.minBytes && share > o.share && record < o.record)) return;
    ctx.report({
      cost: { seconds },
      savings: { kind: 'data', seconds, readBytes, writeBytes: bytes - readBytes },
      messageId: 'stdio',
      data: { share, bytes, ops, record },
      evidence: [
        { name: 'stdioBytes', value: bytes, unit: 'bytes', source: 'STDIO_BYTES_READ + STDIO_BYTES_WRITTEN' },
        { name: 'stdioRequests', value: ops, unit: 'count', source: 'STDIO_READS + STDIO_WRITES' },
        { name: 'meanRecord', value: record, unit: 'bytes', source: 'stdio.files' },
      ],
      recommendations: ['buffer', 'parallel'],
    });
  },
});
