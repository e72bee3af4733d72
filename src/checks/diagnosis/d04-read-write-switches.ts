import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { DATA_OPS, hasRow, modelOf, rowsIn, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D04: reads and writes alternate on the same file, judged where the application calls: MPIIO_RW_SWITCHES for
 * MPI-IO files (at POSIX, data sieving's read-modify-write alternates by itself, D05), POSIX_RW_SWITCHES otherwise.
 * A file alternates when it has at least two switches (one switch is a write phase followed by a read phase, the
 * recommended order) and more than `rw_switch_share` per request; the job needs `rw_switch_min` switches on such
 * files together (a file per process that alternates sixteen times is as costly as a shared file that does it for
 * all). STDIO keeps no switch counter: the C library requires a flush or a seek between writing and reading a stream,
 * so a stream both read and written with a repositioning call for (nearly) every request of its rarer direction is
 * taken to alternate, 2 × that many requests − 1 switches (an estimate, WARN at most).
 */
export default defineCheck({
  meta: {
    code: 'D04',
    slug: 'read-write-switches',
    title: 'Reads and writes come in phases',
    failureTitle: 'Reads and writes alternate on the same file',
    description:
      'Switching between reading and writing a file flushes write-behind and read-ahead state, and on parallel file ' +
      'systems revokes and re-acquires locks at each switch. Writing a phase completely before reading it back avoids that.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'rw-switches',
    requires: ['job'],
    modes: ['default'],
    options: {
      share: { knob: 'rw_switch_share', description: 'Switches per request on a file (of at least two switches).' },
      min: { knob: 'rw_switch_min', description: 'Minimum number of switches on the alternating files, together.' },
    },
    messages: {
      switches: '{switches} switches between reading and writing over {ops} requests on {files} file(s)',
      file: '{switches} read/write switches over {ops} requests on "{file}"',
    },
    recommendations: {
      phases: { text: 'Write a whole phase (or a large buffer) first, then read it back; keep data you need again in memory instead of re-reading it right after writing' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no rule for read/write alternation.' }] },
  },
  run(ctx) {
    const p = ctx.tryFact('posix.files') ?? { ids: new BigUint64Array(0), reads: new Float64Array(0), writes: new Float64Array(0), rwSwitches: new Float64Array(0) };
    const mp = ctx.tryFact('mpiio.files');
    const toMpiio = mp ? rowsIn(p.ids, mp.ids) : null;
    const sf = ctx.tryFact('stdio.files');
    const details: DetailInput<'file'>[] = [];
    const model = modelOf(ctx);
    let switches = 0, ops = 0, estimated = false, seconds = 0;
    const consider = (ids: BigUint64Array, row: number, n: number, s: number) => {
      if (!(n > 0 && s >= 2 && s / n > ctx.options.share)) return false;
      switches += s;
      ops += n;
      seconds += secondsOf(model, ids[row], DATA_OPS.both);
      const subject = ctx.file(ids[row]);
      details.push({ messageId: 'file', data: { switches: s, ops: n, file: subjectName(subject) }, subject });
      return true;
    };
    // POSIX files with requests: a stream with such a POSIX record (through fileno()) is judged there, not again.
    const seenRow = new Uint8Array(p.ids.length);
    const seen = sf ? hasRow(p.ids, (i) => seenRow[i] === 1) : () => false;
    for (let i = 0; i < p.ids.length; i++) {
      const m = toMpiio ? toMpiio[i] : -1;
      const n = m < 0 ? p.reads[i] + p.writes[i] : mp!.indepReads[m] + mp!.indepWrites[m] + mp!.collReads[m] + mp!.collWrites[m] + mp!.nbReads[m] + mp!.nbWrites[m] + mp!.splitReads[m] + mp!.splitWrites[m];
      const s = m < 0 ? p.rwSwitches[i] : mp!.rwSwitches[m];
      if (n > 0) seenRow[i] = 1;
      consider(p.ids, i, n, s);
    }
    if (sf) for (let i = 0; i < sf.ids.length; i++) {
      if (seen(sf.ids[i])) continue;
      const fewer = Math.min(sf.reads[i], sf.writes[i]);
      const repositions = sf.seeks[i] + sf.flushes[i] - sf.opens[i];
      if (fewer >= 1 && repositions >= fewer && consider(sf.ids, i, sf.reads[i] + sf.writes[i], 2 * fewer - 1)) estimated = true;
    }
    if (!details.length || switches < ctx.options.min) return;
    ctx.report({
      ...(estimated ? { level: 'WARN' as const } : {}),
      // The switching files' reads and writes: what the switches cost is a part of it.
      cost: { seconds, basis: 'bound' },
      messageId: 'switches',
      data: { switches, ops, files: details.length },
      evidence: [
        { name: 'switches', value: switches, unit: 'count', source: estimated ? 'MPIIO_RW_SWITCHES for MPI-IO files, else POSIX_RW_SWITCHES; streams: estimated from STDIO_SEEKS + STDIO_FLUSHES' : 'MPIIO_RW_SWITCHES for MPI-IO files, else POSIX_RW_SWITCHES' },
        { name: 'requests', value: ops, unit: 'count', source: 'POSIX_READS + POSIX_WRITES (MPI-IO or STDIO requests for those files)' },
      ],
      details,
      recommendations: ['phases'],
    });
  },
});
