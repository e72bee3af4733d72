import type { Finding, IoOp, IoSummary, Verdict } from '../contract/index.js';
import { formatPercent, formatSeconds } from '../text/format.js';
import { NO_FILE } from '../facts/counters/ledger.js';
import { storageVerdict } from './storage-verdict.js';

/** What a part of the I/O time is, as the verdict says it. */
const DOING: Record<IoOp, string> = {
  metadata: 'opening, closing and seeking',
  read: 'reading',
  write: 'writing',
  sync: 'syncing',
  other: 'other I/O calls on',
};

/** The layers a part's time passed through, outermost first (`HDF5 → MPI-IO → POSIX`). */
function path(layer: string, beneath: Readonly<Record<string, number>>): string[] {
  return [layer, ...Object.keys(beneath).filter((l) => beneath[l] > 0)];
}

/**
 * The verdict the report opens with: where the time went, in a sentence or two with numbers, from the time model's
 * breakdown — I/O against the run time; the largest part, with the file that holds most of it and how much of it the
 * layers beneath took; and whether I/O matters to this run at all (below `high_run_share` of the run, no finding can
 * be HIGH, and the verdict says so). `findings` are the HIGH/WARN findings, ranked.
 */
export function buildVerdict(io: IoSummary, findings: readonly Finding[], highRunShare: number): Verdict {
  const sentences: string[] = [];
  const runKnown = io.runTime > 0;
  const ioBound = io.ioShare === null || io.ioShare >= highRunShare;
  const cum = io.cumulativeIoTime;
  // Time on files that are not storage is waiting, not I/O: said first, and the sink, when it outweighs the largest
  // part of the I/O time.
  const ns = io.notStorage;
  const largest = io.breakdown.reduce((a, b) => Math.max(a, b.cumulativeSeconds), 0);
  const waiting =
    ns && ns.cumulativeSeconds > largest
      ? `The job waited ${formatSeconds(ns.seconds)}${io.processes > 1 ? ' on the slowest rank' : ''} on ${ns.count} file(s) that are not storage${ns.files[0] ? ` (the most on "${ns.files[0].name}", ${ns.files[0].reason})` : ''}: waiting on other processes or devices, not on the file system, so it is not counted as I/O time.`
      : null;
  if (waiting) sentences.push(waiting);
  const waitSink: Verdict['sink'] =
    waiting && ns
      ? { layer: 'not storage', op: 'other', seconds: ns.seconds, cumulativeSeconds: ns.cumulativeSeconds, share: ns.cumulativeSeconds / (ns.cumulativeSeconds + cum), file: ns.files[0]?.name ?? null, storage: false }
      : null;
  if (!(cum > 0)) {
    sentences.push(runKnown ? `No I/O time was recorded in this ${formatSeconds(io.runTime)} run.` : 'No I/O time was recorded.');
    return { text: sentences.join(' '), ioBound: false, sink: waitSink, findings: [] };
  }
  // What the sums run over: ranks, and calls of one rank that ran at once (threads), which its time counts once.
  const over = io.overlapSeconds > 0 ? (io.processes > 1 ? 'ranks and their concurrent calls' : 'concurrent calls') : 'ranks';
  const ranks =
    io.overlapSeconds > 0
      ? `; ${formatSeconds(cum)} summed over ${io.processes > 1 ? `${io.processes} ranks and their` : 'its'} concurrent calls`
      : io.processes > 1
        ? `; ${formatSeconds(cum)} summed over ${io.processes} ranks`
        : '';
  sentences.push(
    runKnown && io.ioShare !== null
      ? `I/O is ${formatPercent(io.ioShare)} of the run (${formatSeconds(io.ioTime)} of ${formatSeconds(io.runTime)} on the slowest rank${ranks}).`
      : `I/O takes ${formatSeconds(io.ioTime)} on the slowest rank${ranks}.`,
  );
  // The largest part of the breakdown.
  const top = [...io.breakdown].sort((a, b) => b.cumulativeSeconds - a.cumulativeSeconds || b.seconds - a.seconds)[0];
  let sink: Verdict['sink'] = null;
  if (top) {
    const share = top.cumulativeSeconds / cum;
    // The file holding most of it (calls a trace records without a file name none)
    const file = io.files.find((f) => f.layer === top.layer && f.ops[top.op] >= 0.5 * top.cumulativeSeconds && f.name !== NO_FILE) ?? null;
    const through = path(top.layer, top.beneath);
    const on = file ? ` ${file.name}` : ' files';
    let s = `${formatPercent(share)} of it is ${DOING[top.op]}${on} through ${through.join(' → ')} (${formatSeconds(top.cumulativeSeconds)} summed over ${over})`;
    // The deepest layer's calls inside it are the file system's; what the layers above spent themselves is their
    // own work and waiting (a collective open or write waits for every rank).
    const bottom = through[through.length - 1];
    const below = through.length > 1 ? (top.beneath[bottom] ?? 0) : top.cumulativeSeconds;
    if (through.length > 1 && below < 0.5 * top.cumulativeSeconds) {
      const libs = through.slice(0, -1);
      s += `; the ${bottom} calls inside it took ${formatSeconds(below)}: the rest is ${libs.join(' and ')}'s own work and waiting for the other ranks`;
    }
    sentences.push(`${s}.`);
    sink = waitSink ?? { layer: top.layer, op: top.op, seconds: top.seconds, cumulativeSeconds: top.cumulativeSeconds, share, file: file ? file.name : null };
  }
  const raised = findings.filter((f) => (f.level === 'HIGH' || f.level === 'WARN') && f.cost);
  if (!ioBound && io.ioShare !== null) {
    sentences.push(`I/O is not this job's bottleneck (under ${formatPercent(highRunShare)} of the run): no finding is HIGH.`);
  } else {
    const first = raised[0];
    // A slow storage target that holds the time is said as such (storage-verdict.ts), in place of the largest saving.
    const storage = storageVerdict(raised);
    if (storage) sentences.push(storage);
    else if (first?.level === 'HIGH' && first.cost && first.savings) {
      const s = first.savings;
      const of = s.semantics === 'slowest' ? io.ioTime : io.cumulativeIoTime;
      sentences.push(`Fixing ${first.code} (${first.problem ?? 'problem'}) would save about ${formatSeconds(s.seconds)} (${formatSeconds(s.low)}–${formatSeconds(s.high)}) of ${formatSeconds(of)} of I/O time${s.semantics === 'slowest' ? ' on the slowest rank' : ''}; its calls took ${formatSeconds(first.cost.seconds)}.`);
    }
  }
  const names = (f: Finding) =>
    sink !== null &&
    sink.storage !== false &&
    f.cost !== undefined &&
    ((sink.op === 'metadata' && (f.problem === 'metadata-heavy' || f.problem === 'many-small-files')) ||
      (sink.op === 'sync' && f.problem === 'excessive-fsync') ||
      ((sink.op === 'write' || sink.op === 'read') && f.cost.ioShare >= 0.5 * sink.share));
  return { text: sentences.join(' '), ioBound, sink, findings: raised.filter(names).map((f) => f.code) };
}
