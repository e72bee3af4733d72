import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { DATA_OPS, hasRow, modelOf, rowsIn, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D06: files read more than once: bytes read exceed the file's extent (typically every rank reading the whole shared
 * input). MPI-IO files count the bytes the application read through MPI-IO (data sieving reads extra bytes at POSIX
 * by itself); streams read through STDIO count their STDIO bytes against their STDIO extent. Level by cost: HIGH when
 * most of the job's read bytes were redundant, WARN otherwise.
 */
export default defineCheck({
  meta: {
    code: 'D06',
    slug: 'file-reread',
    title: 'Each byte is read once',
    failureTitle: 'Files read more than once (every rank reading the same data)',
    description:
      'Reading the same bytes again multiplies the load on the file system; when every rank reads a whole shared input, ' +
      'the servers deliver the file N times instead of once.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'redundant-read',
    requires: ['job'],
    modes: ['default'],
    supersedes: ['P09'],
    options: {
      factor: { knob: 'redundant_read_factor', description: "Bytes read / the file's extent." },
      minBytes: { knob: 'io_bytes_min', description: 'Minimum redundant bytes on a file.' },
    },
    messages: {
      reread: '{files} file(s) read {factor:fixed2} times over on average: {extra:bytes} of the {read:bytes} read were read before',
      file: '"{file}": {read:bytes} read from {extent:bytes}{everyRank}',
    },
    recommendations: {
      once: { text: 'Read shared input once (one rank, or a collective read that splits it) and broadcast or scatter it with MPI', snippet: 'read-once-broadcast.c' },
      cache: { text: 'Keep data that is needed again in memory instead of reading it again' },
    },
    compat: { differences: [{ id: 'level-by-cost', description: 'Drishti (P09) always says WARN; this check is HIGH when most read bytes are redundant, WARN otherwise, and names files where every rank read the whole file.' }] },
  },
  run(ctx) {
    const p = ctx.tryFact('posix.files');
    const sf = ctx.tryFact('stdio.files');
    const mp = ctx.tryFact('mpiio.files');
    const nprocs = ctx.fact('job').processes;
    const details: DetailInput<'file'>[] = [];
    const model = modelOf(ctx);
    let extra = 0, readFiles = 0, extentSum = 0, allRead = 0, seconds = 0;
    const consider = (ids: BigUint64Array, row: number, r: number, e: number, everyRank: string) => {
      if (r > 0) allRead += r;
      if (!(r > 0 && e > 0 && r / e > ctx.options.factor && r - e >= ctx.options.minBytes)) return;
      extra += r - e;
      // The reads beyond the first of each byte: the file's read time in proportion.
      seconds += (secondsOf(model, ids[row], DATA_OPS.read) * (r - e)) / r;
      readFiles += r;
      extentSum += e;
      const subject = ctx.file(ids[row]);
      details.push({ messageId: 'file', data: { file: subjectName(subject), read: r, extent: e, everyRank }, subject });
    };
    const posixRead = new Uint8Array(p ? p.ids.length : 0);
    const toMpiio = p && mp ? rowsIn(p.ids, mp.ids) : null;
    if (p) for (let i = 0; i < p.ids.length; i++) {
      const m = toMpiio ? toMpiio[i] : -1;
      const r = m < 0 ? p.bytesRead[i] : mp!.bytesRead[m], e = p.extent[i];
      if (r > 0) posixRead[i] = 1;
      consider(p.ids, i, r, e, p.shared[i] && nprocs > 1 && p.fastestRankBytes[i] >= 0.9 * e ? ` (each of the ${nprocs} ranks read it whole)` : '');
    }
    // A stream whose POSIX record (through fileno()) read is judged there, not again.
    const readByPosix = sf && p ? hasRow(p.ids, (i) => posixRead[i] === 1) : () => false;
    if (sf) for (let i = 0; i < sf.ids.length; i++) if (!readByPosix(sf.ids[i])) consider(sf.ids, i, sf.bytesRead[i], sf.extent[i], '');
    if (!details.length) return;
    const share = allRead ? extra / allRead : 0;
    ctx.report({
      level: share > 0.5 ? 'HIGH' : 'WARN',
      cost: { seconds },
      savings: { kind: 'excess', seconds, what: 'each byte read once (read by one rank and shared)' },
      messageId: 'reread',
      data: { files: details.length, factor: readFiles / extentSum, extra, read: allRead },
      evidence: [
        { name: 'redundantBytes', value: extra, unit: 'bytes', source: 'POSIX_BYTES_READ − (POSIX_MAX_BYTE_READ + 1) (MPIIO_BYTES_READ for MPI-IO files, STDIO_ counters for streams)' },
        { name: 'bytesRead', value: allRead, unit: 'bytes', source: 'POSIX_BYTES_READ (MPIIO_BYTES_READ, STDIO_BYTES_READ)' },
      ],
      details,
      // Reading once and broadcasting needs other ranks to broadcast to.
      recommendations: nprocs > 1 ? ['once', 'cache'] : ['cache'],
    });
  },
});
