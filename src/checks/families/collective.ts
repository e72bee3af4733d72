import { defineCheck } from '../define-check.js';
import type { Check, DetailInput } from '../types.js';
import { WORDS, type Direction } from './direction.js';

/**
 * M02/M03: MPI-IO is used but no collective reads/writes, with more than collective_operations_absolute MPI-IO
 * operations of that direction. Details: `--drishti` lists MPI-IO *records* (one per rank for unshared files) whose
 * independent share exceeds collective_operations and whose independent operations exceed the absolute floor,
 * printing the percentage as a raw float (SPEC §7.9); the default mode lists files (ranks summed).
 */
export function missingCollectives(code: 'M02' | 'M03', dir: Direction): Check<'ratio' | 'absolute', 'independent' | 'record' | 'file', 'collective'> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `no-collective-${w.ops}`,
      title: `MPI-IO ${w.ops} use collective calls`,
      failureTitle: `MPI-IO ${w.ops} are all independent`,
      description:
        `The job ${dir === 'read' ? 'reads' : 'writes'} through MPI-IO but never collectively. Independent calls leave every ` +
        `rank to talk to the file system on its own; collective calls let MPI-IO merge requests through aggregators (two-phase I/O).`,
      panel: 'OPERATIONS',
      layer: 'MPI-IO',
      scope: 'file',
      level: 'HIGH',
      problem: 'no-collective',
      requires: ['mpiio.totals', 'mpiio.records'],
      options: {
        ratio: { knob: 'collective_operations', description: `Share of independent operations above which a file is listed.` },
        absolute: { knob: 'collective_operations_absolute', description: `Minimum number of MPI-IO ${w.ops} (and of independent operations for a listed file).` },
      },
      messages: {
        independent: `No collective MPI-IO ${w.ops}: all {count} ({ratio:pct}) are independent calls`,
        record: `{count} ({percent:pctRaw}) independent ${w.ops} to "{file}"`,
        file: `{count} ({ratio:pct}) independent ${w.ops} to "{file}"`,
      },
      recommendations: {
        collective: {
          text: `Use collective ${w.ops} (MPI_File_${w.op}_all or MPI_File_${w.op}_at_all) and set one aggregator per compute node (cb_nodes)`,
          snippet: dir === 'read' ? 'mpi-io-collective-read.c' : 'mpi-io-collective-write.c',
        },
      },
      compat: {
        drishti: code,
        marks: ['collective_operations_absolute'],
        differences: [{ id: 'details-per-file', description: 'Drishti lists one detail per MPI-IO record (a file can appear once per rank) with a raw float percentage; the default mode sums ranks per file.' }],
      },
    },
    run(ctx) {
      const t = ctx.fact('mpiio.totals');
      const coll = dir === 'read' ? t.collReads : t.collWrites;
      const indep = dir === 'read' ? t.indepReads : t.indepWrites;
      const total = indep + coll;
      const { ratio, absolute } = ctx.options;
      if (coll !== 0 || !(total > absolute)) return;
      const r = ctx.fact('mpiio.records');
      const details: DetailInput<'record' | 'file'>[] = [];
      const pick = (ir: number, iw: number) => {
        const both = ir + iw;
        const mine = dir === 'read' ? ir : iw;
        return both && mine / both > ratio && both > absolute ? mine / both : -1;
      };
      if (ctx.mode === 'drishti') {
        for (let i = 0; i < r.ids.length; i++) {
          const share = pick(r.indepReads[i], r.indepWrites[i]);
          if (share < 0) continue;
          const subject = ctx.file(r.ids[i], r.ranks[i]);
          const count = dir === 'read' ? r.indepReads[i] : r.indepWrites[i];
          details.push({ messageId: 'record', data: { count, percent: share * 100, file: subject.kind === 'file' ? subject.name : '' }, subject });
        }
      } else {
        const f = r.byFile;
        for (let i = 0; i < f.ids.length; i++) {
          const share = pick(f.indepReads[i], f.indepWrites[i]);
          if (share < 0) continue;
          const subject = ctx.file(f.ids[i]);
          const count = dir === 'read' ? f.indepReads[i] : f.indepWrites[i];
          details.push({ messageId: 'file', data: { count, ratio: share, file: subject.kind === 'file' ? subject.name : '' }, subject });
        }
      }
      ctx.report({
        messageId: 'independent',
        data: { count: indep, ratio: indep / total },
        evidence: [
          { name: `independent${w.Op}s`, value: indep, unit: 'count', source: dir === 'read' ? 'MPIIO_INDEP_READS' : 'MPIIO_INDEP_WRITES' },
          { name: `collective${w.Op}s`, value: coll, unit: 'count', source: dir === 'read' ? 'MPIIO_COLL_READS' : 'MPIIO_COLL_WRITES' },
        ],
        details,
        recommendations: ['collective'],
      });
    },
  });
}

/** M04/M05: the observation that MPI-IO reads/writes use collective calls. */
export function collectiveUse(code: 'M04' | 'M05', dir: Direction): Check<never, 'collective', never> {
  const w = WORDS[dir];
  return defineCheck({
    meta: {
      code,
      slug: `collective-${w.ops}`,
      title: `MPI-IO ${w.ops} use collective calls`,
      failureTitle: `MPI-IO ${w.ops} use collective calls`,
      description: `The job ${dir === 'read' ? 'reads' : 'writes'} through collective MPI-IO calls, which let MPI-IO aggregate requests.`,
      panel: 'OPERATIONS',
      layer: 'MPI-IO',
      scope: 'job',
      level: 'OK',
      problem: 'no-collective',
      requires: ['mpiio.totals'],
      options: {},
      messages: { collective: `MPI-IO ${w.ops} use {count} ({ratio:pct}) collective operations` },
      recommendations: {},
      compat: { drishti: code },
    },
    run(ctx) {
      const t = ctx.fact('mpiio.totals');
      const coll = dir === 'read' ? t.collReads : t.collWrites;
      const total = coll + (dir === 'read' ? t.indepReads : t.indepWrites);
      if (coll === 0) return;
      ctx.report({
        messageId: 'collective',
        data: { count: coll, ratio: coll / total },
        evidence: [{ name: `collective${w.Op}s`, value: coll, unit: 'count', source: dir === 'read' ? 'MPIIO_COLL_READS' : 'MPIIO_COLL_WRITES' }],
      });
    },
  });
}
