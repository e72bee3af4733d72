import type { ScoredRecord } from '../../trace/score.js';
import type { DetailInput } from '../types.js';
import { defineTraceCheck, recordLabel, recordSubject } from './define.js';

/**
 * T07: one rank spends far longer in I/O than the typical rank while moving about the same bytes — a straggler the
 * others wait for. Judged on the job's time model (`io.time`) where its per-rank seconds are exact (a trace's calls;
 * a log's DXT leaves it to D13, which runs on the log's counters and segments), its bytes on the trace's `proc` view
 * (one of the default views; without it the check cannot tell a straggler from a data imbalance and stays quiet). A rank moving
 * far more bytes than the others is a data imbalance (T03), not a straggler. The thresholds are D13's (the log's
 * straggler check): the same ratio over the typical rank and the same floor in seconds, so that `trace` and `report`
 * blame a rank on the same evidence.
 */
export default defineTraceCheck({
  meta: {
    code: 'T07',
    slug: 'rank-dominates',
    title: 'No rank takes far longer in I/O than the others',
    failureTitle: 'One rank takes far longer in I/O than the others',
    description:
      'When one rank spends much longer in I/O than the others for the same work, the others wait for it at the next ' +
      'synchronisation: the job pays the straggler\'s time. Syncs, O_SYNC writes, a slow node or contention on its ' +
      'server make one rank slow.',
    panel: 'OPERATIONS',
    problem: 'time-imbalance',
    options: {
      ratio: { knob: 'time_imbalance_ratio', description: "The slowest rank's I/O time over the median rank's above which it is a straggler (D13's ratio: short runs vary 2–5× between ranks)." },
      seconds: { knob: 'time_imbalance_seconds', description: 'Seconds the slowest rank must spend beyond the median rank (noise in short runs stays below).' },
      factor: { knob: 'trace_imbalance_factor', description: "Bytes of the slowest rank over the median rank's above which it moves more data (a data imbalance, T03), not slower." },
    },
    messages: {
      finding:
        'Process {rank} spends {slow:seconds} in I/O, {ratio:fixed2} times the median rank ({typical:seconds}) for about the same bytes: the job waits {seconds:seconds} for it',
      record: '{record}: {slow:seconds} in I/O, {bytes:bytes} moved (median rank: {typicalBytes:bytes})',
    },
    recommendations: {
      sync: { text: 'Look at what that rank does differently: syncs after its writes, O_SYNC or O_DIRECT opens, or a slower node or storage target' },
      spread: { text: 'Spread the I/O over the ranks evenly, or over a few aggregators, so that no rank sets the length of the I/O phase alone' },
    },
  },
  run(ctx) {
    const m = ctx.fact('io.time');
    const n = Math.min(m.rankSeconds.length, m.processes);
    // Per-rank times measured call by call (a trace's); a log's DXT comes with counters that keep only the slowest and
    // fastest rank of a shared file, where D13 judges the ranks on the DXT segments instead.
    if (n < 2 || !m.ranksExact) return;
    let slow = 0;
    for (let r = 1; r < n; r++) if (m.rankSeconds[r] > m.rankSeconds[slow]) slow = r;
    const others = Array.from(m.rankSeconds.subarray(0, n)).filter((_, r) => r !== slow).sort((a, b) => a - b);
    const typical = others.length % 2 ? others[others.length >> 1] : (others[(others.length >> 1) - 1] + others[others.length >> 1]) / 2;
    const extra = m.rankSeconds[slow] - typical;
    const o = ctx.options;
    if (!(extra >= o.seconds && m.rankSeconds[slow] > o.ratio * typical)) return;
    const label = m.rankLabels?.[slow] ?? String(slow);
    // Bytes per rank from the proc view (ranks are processes labelled as the trace labels them).
    const procs = ctx.views().views.find((v) => v.dims.length === 1 && v.dims[0] === 'proc');
    if (!procs) return;
    const record: ScoredRecord | undefined = procs.records.find((r) => String(r.key.proc) === label);
    // The typical other rank's bytes (ranks without a record moved none).
    const bytes = procs.records.filter((r) => r !== record).map((r) => r.metrics.bytes);
    while (bytes.length < n - 1) bytes.push(0);
    bytes.sort((a, b) => a - b);
    const typicalBytes = bytes.length % 2 ? bytes[bytes.length >> 1] : (bytes[(bytes.length >> 1) - 1] + bytes[bytes.length >> 1]) / 2;
    // Far more bytes than the typical rank (or bytes where it moved none): a data imbalance, not a straggler.
    if (record && record.metrics.bytes > 0 && record.metrics.bytes > o.factor * typicalBytes) return;
    const details: DetailInput<'record'>[] = record
      ? [{ messageId: 'record', data: { record: recordLabel(record), slow: m.rankSeconds[slow], bytes: record.metrics.bytes, typicalBytes }, subject: recordSubject(record) }]
      : [];
    ctx.report({
      messageId: 'finding',
      data: { rank: label, slow: m.rankSeconds[slow], typical, ratio: typical > 0 ? m.rankSeconds[slow] / typical : 0, seconds: extra },
      cost: { seconds: extra, semantics: 'slowest' },
      savings: { kind: 'excess', seconds: extra, what: "the slowest rank's time beyond the median rank's" },
      evidence: [
        { name: 'slowestRankSeconds', value: m.rankSeconds[slow], unit: 'seconds', source: m.ranksExact ? "the rank's I/O time (the time model, from the trace's calls)" : "the rank's I/O time (the time model: Darshan's slowest-rank time of shared files)" },
        { name: 'medianRankSeconds', value: typical, unit: 'seconds', source: 'median I/O time of the other ranks (the time model)' },
      ],
      details,
      recommendations: ['sync', 'spread'],
    });
  },
});
