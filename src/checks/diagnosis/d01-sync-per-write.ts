import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { modelOf, rowsIn, secondsOf, subjectName } from '../families/diagnosis-common.js';

/**
 * D01: fsync/fdatasync after (nearly) every write. Darshan counts syncs per file (POSIX_FSYNCS, POSIX_FDSYNCS) and
 * adds their time to the write time, so the cost is the write time of the files that sync per write. A stream
 * synced through `fsync(fileno(f))` has a POSIX record with the syncs and no writes: its writes are the stream's
 * (STDIO record of the same file). One sync per file (before close) is the recommended practice: a file counts when
 * it has at least two syncs and more than `fsync_per_write` per write; the job needs `fsync_min` syncs on such files.
 * Cost: the files' sync time where DXT separated it from Darshan's write time (the time model), else their write
 * time with the syncs in it (an upper bound).
 * Writes through O_SYNC/O_DSYNC leave no trace in the counters (Darshan records no open flags), docs/eval.md.
 */
export default defineCheck({
  meta: {
    code: 'D01',
    slug: 'sync-per-write',
    title: 'Files are synced rarely',
    failureTitle: 'fsync or fdatasync after every write',
    description:
      'A sync forces the data (and for fsync the metadata) to stable storage and waits for it. After every write it ' +
      'serialises the job on storage latency and defeats the write-back cache; on a parallel file system every sync is a server round trip.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'HIGH',
    problem: 'excessive-fsync',
    requires: ['posix.files'],
    modes: ['default'],
    options: {
      perWrite: { knob: 'fsync_per_write', description: 'Syncs per write on a file (of at least two syncs) above which it syncs per write.' },
      min: { knob: 'fsync_min', description: 'Minimum number of syncs on the files that sync per write, together.' },
    },
    messages: {
      sync: '{syncs} fsync/fdatasync calls for {writes} writes ({perWrite:fixed2} per write) on {files} file(s) take {seconds:seconds}',
      syncBound: '{syncs} fsync/fdatasync calls for {writes} writes ({perWrite:fixed2} per write) on {files} file(s), within {seconds:seconds} of write and sync time',
      file: '{syncs} syncs for {writes} writes on "{file}"',
    },
    recommendations: {
      batch: { text: 'Sync once per checkpoint or phase (before close or at a barrier), not after each write; let the file system write back in between', snippet: 'sync-per-phase.c' },
      noOsync: { text: 'If durability per record is really needed, group records into larger writes and sync the group' },
    },
    compat: { differences: [{ id: 'new', description: 'Drishti has no rule for syncs.' }] },
  },
  run(ctx) {
    const p = ctx.fact('posix.files');
    const sf = ctx.tryFact('stdio.files');
    const toStream = sf ? rowsIn(p.ids, sf.ids) : null;
    // Details up to the report's limit, every file counted (a log may name thousands).
    const details: DetailInput<'file'>[] = [];
    const model = modelOf(ctx);
    let syncs = 0, writes = 0, time = 0, files = 0, syncSeconds = 0, bounded = false, bytes = 0;
    for (let i = 0; i < p.ids.length; i++) {
      const s = p.syncs[i];
      const k = toStream ? toStream[i] : -1;
      const viaStream = !(p.writes[i] > 0) && k >= 0;
      const w = viaStream ? sf!.writes[k] : p.writes[i];
      if (!(w > 0 && s >= 2 && s / w > ctx.options.perWrite)) continue;
      syncs += s;
      writes += w;
      bytes += Math.max(0, p.bytesWritten[i]);
      time += Math.max(0, p.writeTime[i]) + (viaStream ? Math.max(0, sf!.writeTime[k]) : 0);
      const split = secondsOf(model, p.ids[i], ['sync']);
      if (split > 0) syncSeconds += split;
      else {
        bounded = true;
        syncSeconds += secondsOf(model, p.ids[i], ['write', 'sync']);
      }
      if (files++ >= ctx.detailLimit) continue;
      const subject = ctx.file(p.ids[i]);
      details.push({ messageId: 'file', data: { syncs: s, writes: w, file: subjectName(subject) }, subject });
    }
    if (!files || syncs < ctx.options.min) return;
    ctx.report({
      cost: { seconds: syncSeconds, basis: bounded ? 'bound' : 'time' },
      // Done well: one sync per file at the end, which still flushes every byte written.
      savings: { kind: 'calls', seconds: syncSeconds, calls: syncs, needed: files, bytes, what: 'one sync per file at the end' },
      messageId: bounded ? 'syncBound' : 'sync',
      data: { syncs, writes, perWrite: syncs / writes, files, seconds: syncSeconds },
      evidence: [
        { name: 'syncs', value: syncs, unit: 'count', source: 'POSIX_FSYNCS + POSIX_FDSYNCS' },
        { name: 'writes', value: writes, unit: 'count', source: 'POSIX_WRITES (STDIO_WRITES for a stream synced through its descriptor)' },
        { name: 'writeSeconds', value: time, unit: 'seconds', source: 'POSIX_F_WRITE_TIME (includes sync time)' },
        { name: 'syncSeconds', value: syncSeconds, unit: 'seconds', source: bounded ? 'the files\' write time with the syncs in it (the time model; DXT did not separate them): an upper bound' : 'the files\' write time less their DXT write calls (the time model)' },
      ],
      details,
      detailCount: files,
      recommendations: ['batch', 'noOsync'],
    });
  },
});
