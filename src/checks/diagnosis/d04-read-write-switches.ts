import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { indexOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D04: reads and writes alternate on the same file, judged where the application calls: MPIIO_RW_SWITCHES for
 * MPI-IO files (at POSIX, data sieving's read-modify-write alternates by itself, D05), POSIX_RW_SWITCHES otherwise.
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
    requires: ['posix.files'],
    modes: ['default'],
    options: {
      share: { knob: 'rw_switch_share', description: 'Switches per request on a file.' },
      min: { knob: 'rw_switch_min', description: 'Minimum number of switches on a file.' },
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
    const p = ctx.fact('posix.files');
    const mp = ctx.tryFact('mpiio.files');
    const mi = mp ? indexOf(mp.ids) : new Map<bigint, number>();
    const details: DetailInput<'file'>[] = [];
    let switches = 0, ops = 0;
    for (let i = 0; i < p.ids.length; i++) {
      const m = mi.get(p.ids[i]);
      const n = m === undefined ? p.reads[i] + p.writes[i] : mp!.indepReads[m] + mp!.indepWrites[m] + mp!.collReads[m] + mp!.collWrites[m] + mp!.nbReads[m] + mp!.nbWrites[m] + mp!.splitReads[m] + mp!.splitWrites[m];
      const s = m === undefined ? p.rwSwitches[i] : mp!.rwSwitches[m];
      if (!(n > 0 && s >= ctx.options.min && s / n > ctx.options.share)) continue;
      switches += s;
      ops += n;
      const subject = ctx.file(p.ids[i]);
      details.push({ messageId: 'file', data: { switches: s, ops: n, file: subjectName(subject) }, subject });
    }
    if (!details.length) return;
    let all = 0;
    for (let i = 0; i < p.ids.length; i++) all += p.reads[i] + p.writes[i];
    ctx.report({
      cost: { share: all ? ops / all : 0, basis: 'operations' },
      messageId: 'switches',
      data: { switches, ops, files: details.length },
      evidence: [
        { name: 'switches', value: switches, unit: 'count', source: 'MPIIO_RW_SWITCHES for MPI-IO files, else POSIX_RW_SWITCHES' },
        { name: 'requests', value: ops, unit: 'count', source: 'POSIX_READS + POSIX_WRITES' },
      ],
      details,
      recommendations: ['phases'],
    });
  },
});
