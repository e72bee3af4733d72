import type { IoOp, Subject, TimeShare } from '../../contract/index.js';
import { IO_OPS } from '../../contract/index.js';
import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { significant, subjectName } from '../families/diagnosis-common.js';
import { NO_FILE } from '../../facts/counters/ledger.js';

/** What a part of the I/O time is, in words. */
const OP_WORDS: Record<IoOp, string> = {
  metadata: 'opening, closing, seeking and querying files',
  read: 'reading',
  write: 'writing',
  sync: 'syncing (fsync, fdatasync, MPI_File_sync)',
  other: 'other I/O calls',
};

/** The seconds the deepest layer beneath spent inside an entry's calls: the file system's own calls (POSIX). */
function deepest(e: TimeShare): number {
  const layers = Object.keys(e.beneath);
  return layers.length ? e.beneath[layers[layers.length - 1]] : 0;
}

/**
 * The part of a breakdown entry its libraries spent themselves, above the file-system calls they made (HDF5's and
 * MPI-IO's own work and waiting inside an H5Dwrite), cumulative seconds.
 */
function own(e: TimeShare): number {
  return Math.max(0, e.cumulativeSeconds - deepest(e));
}

/** The layers an entry's calls passed through above the deepest one (`HDF5 and MPI-IO`). */
function libraries(e: TimeShare): string {
  const layers = [e.layer, ...Object.keys(e.beneath).slice(0, -1)];
  return layers.join(' and ');
}

/**
 * D20: where the time went, when one part dominates it: metadata calls, syncs, or time a library layer spends itself
 * around the file-system calls it makes (waiting for the other ranks in a collective open, close or transfer,
 * exchanging data between them). An observation from the time model (`io.time`), so that the report always names
 * such a sink; the problem checks (D01 syncs per write, D07 metadata load, D13 stragglers, D19 reopened HDF5 files …)
 * say when it comes from a pattern to change. Moving data taking most of the time is the job's work, not a sink.
 */
export default defineCheck({
  meta: {
    code: 'D20',
    slug: 'time-sink',
    title: 'No part of the I/O time dominates',
    failureTitle: 'One part of the I/O time dominates it',
    description:
      'The time model splits the job\'s I/O time by layer and operation, each layer\'s time holding the calls it made to ' +
      'the layers beneath. When opening and closing files, syncing, or a library\'s own work around its file-system ' +
      'calls takes most of it, that is where a change pays, whatever the request sizes say.',
    panel: 'OPERATIONS',
    layer: 'job',
    scope: 'file',
    level: 'INFO',
    problem: 'time-sink',
    requires: ['io.time'],
    modes: ['default'],
    traces: true,
    options: { share: { knob: 'sink_share', description: 'Share of the I/O time (summed over ranks) from which one part dominates it.' } },
    messages: {
      metadata: '{share:pct} of the I/O time ({cumulative:seconds} summed over ranks, {seconds:seconds} {slowWords}) is {layer} {what}; the file system\'s own calls inside them took {below:seconds}',
      sync: '{share:pct} of the I/O time ({cumulative:seconds} summed over ranks, {seconds:seconds} {slowWords}) is {layer} {what}',
      wait: '{share:pct} of the I/O time ({cumulative:seconds} summed over ranks) is {layer} {what}, of which the file-system calls beneath took {below:seconds}: {ownShare:pct} is {libraries}\'s own work and waiting (collective synchronisation, data exchange between ranks)',
      file: '"{file}": {fileSeconds:seconds} of it',
    },
    recommendations: {
      fixedOpen: { text: 'A collective open or close waits for every rank and sets up the file for all of them: open each file once and keep it open across phases; where most of the time is waiting for late ranks, balance the work before the open', advises: 'open-once' },
      metadata: { text: 'Fewer opens, stats and seeks: keep files open, cache what stat returns, and pack many small files into fewer larger ones', snippet: 'hdf5-collective-metadata.c' },
      sync: { text: 'Sync once per output phase (or let close do it) instead of after every write', snippet: 'sync-per-phase.c' },
      collective: { text: 'Time a collective call spends waiting is time another rank arrives late or the data exchange takes: balance the ranks\' work, and tune collective buffering (cb_nodes, cb_buffer_size) to the nodes and stripes', snippet: 'mpi-io-hints.sh' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no time model: it sums each module\'s times on its own.' }] },
  },
  run(ctx) {
    const m = ctx.fact('io.time');
    const total = m.cumulativeIoTime;
    if (!(total > 0)) return;
    let best: TimeShare | null = null;
    let kind: 'metadata' | 'sync' | 'wait' | null = null;
    for (const e of m.breakdown) {
      if (!(e.cumulativeSeconds >= ctx.options.share * total)) continue;
      const k = e.op === 'metadata' ? 'metadata' : e.op === 'sync' ? 'sync' : (e.op === 'read' || e.op === 'write') && own(e) >= ctx.options.share * e.cumulativeSeconds && Object.keys(e.beneath).length > 0 ? 'wait' : null;
      if (k && (!best || e.cumulativeSeconds > best.cumulativeSeconds)) {
        best = e;
        kind = k;
      }
    }
    if (!best || !kind) return;
    const below = deepest(best);
    // The files holding that operation's time at that layer.
    const op = IO_OPS.indexOf(best.op);
    const rows: { i: number; s: number }[] = [];
    // (A trace's calls on no file it could name — H5Dwrite on a dataset handle — hold time but name no file.)
    const named = (i: number) => !m.fileName || m.fileName(m.files.keys[i]) !== NO_FILE;
    for (let i = 0; i < m.files.keys.length; i++) if (m.files.layer[i] === best.layer && m.files.ops[op][i] > 0 && named(i)) rows.push({ i, s: m.files.ops[op][i] });
    const subjectOf = (i: number): Subject => {
      const key = m.files.keys[i];
      return m.fileName ? { kind: 'file', id: key.toString(), name: m.fileName(key) } : ctx.file(key);
    };
    const details: DetailInput<'file'>[] = significant(rows, (r) => r.s, 0.05)
      .slice(0, Math.min(10, ctx.detailLimit))
      .map((r) => {
        const subject = subjectOf(r.i);
        return { messageId: 'file', data: { file: subjectName(subject), fileSeconds: r.s }, subject };
      });
    const opensPerRank = (() => {
      const f = ctx.tryFact('modules.totals');
      if (!f) return null;
      const t = f.modules.find((x) => x.iface === (best!.layer === 'MPI-IO' ? 'MPI-IO' : best!.layer === 'POSIX' ? 'POSIX' : best!.layer));
      return t && m.processes > 0 && t.files > 0 ? t.opens / m.processes / t.files : null;
    })();
    ctx.report({
      messageId: kind,
      data: {
        share: best.cumulativeSeconds / total,
        cumulative: best.cumulativeSeconds,
        seconds: best.seconds,
        // "on the slowest rank" only where the input records a slowest rank's time; else it is an average.
        slowWords: best.slowestIsMean ? 'per rank on average' : 'on the slowest rank',
        layer: best.layer,
        what: OP_WORDS[best.op],
        below,
        ownShare: best.cumulativeSeconds > 0 ? own(best) / best.cumulativeSeconds : 0,
        libraries: libraries(best),
      },
      cost: { seconds: best.cumulativeSeconds },
      evidence: [
        { name: 'seconds', value: best.cumulativeSeconds, unit: 'seconds', source: `io.breakdown: ${best.layer} ${best.op}, summed over ranks` },
        { name: 'slowestRankSeconds', value: best.seconds, unit: 'seconds', source: `io.breakdown: ${best.layer} ${best.op}, ${best.slowestIsMean ? 'the mean over ranks (no per-rank time recorded)' : "the slowest rank's"}` },
        { name: 'beneathSeconds', value: below, unit: 'seconds', source: 'the calls the layers beneath made inside it (io.breakdown beneath)' },
        ...(opensPerRank !== null ? [{ name: 'opensPerRankAndFile', value: opensPerRank, unit: 'count' as const, source: 'opens per rank and file at that layer' }] : []),
      ],
      details,
      recommendations: kind === 'sync' ? ['sync'] : kind === 'wait' ? ['collective'] : best.layer === 'POSIX' || best.layer === 'STDIO' ? ['metadata'] : ['fixedOpen', 'metadata'],
    });
  },
});
