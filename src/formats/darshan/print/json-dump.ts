import type { DarshanLog } from '../log.js';
import { nameText as utf8 } from '../names.js';
import { MODULES } from '../modules/registry.js';
import { computePerf } from '../perf.js';
import type { TextOut } from './text-out.js';

/** Version of the `iolens parse --json` document; bumped on any incompatible change (docs/parse-json.md). */
export const PARSE_JSON_VERSION = 1;



/**
 * Streams a log as one JSON document (docs/parse-json.md). Record by record, so a log with millions of DXT
 * segments never becomes one huge object in memory. Text from the log is decoded as UTF-8; 64-bit ids are decimal
 * strings; counters are numbers unless beyond 2^53 (then decimal strings).
 */
export function printJsonDump(log: DarshanLog, out: TextOut, opts: { dxt?: boolean } = {}): void {
  const h = log.header;
  const j = log.job;
  const head = {
    format: 'iolens-darshan-log',
    schemaVersion: PARSE_JSON_VERSION,
    log: {
      source: log.source,
      bytes: log.fileBytes,
      version: h.versionString,
      byteOrder: h.byteOrder,
      compression: log.compressionName,
      regions: {
        job: h.jobRegion.len,
        names: h.nameRegion.len,
        modules: log.slots().map((s) => ({ id: s.id, name: s.name, version: s.version, bytes: s.region.len, partial: s.partial })),
      },
    },
    job: {
      jobid: j.jobid.toString(),
      uid: j.uid.toString(),
      nprocs: j.nprocs.toString(),
      startTime: j.startTimeSec.toString(),
      startTimeNsec: j.startTimeNsec.toString(),
      endTime: j.endTimeSec.toString(),
      endTimeNsec: j.endTimeNsec.toString(),
      runTimeSeconds: j.runTimeSeconds,
      legacyJobLayout: j.legacyJobLayout,
      exe: utf8(j.exe),
      metadata: j.metadata.map(([k, v]) => [utf8(k), utf8(v)]),
      mounts: j.mountsInFileOrder.map((m) => ({ path: utf8(m.path), fsType: utf8(m.fsType) })),
    },
  };
  const text = JSON.stringify(head, null, 1);
  out.write(text.slice(0, text.lastIndexOf('}')).trimEnd());
  out.write(',\n "names": {');
  let first = true;
  for (const [id, name] of log.names.entries()) {
    out.write(`${first ? '' : ','}\n  "${id}": ${JSON.stringify(utf8(name))}`);
    first = false;
  }
  out.write('\n },\n "modules": {');
  let firstMod = true;
  for (const s of log.slots()) {
    const row = MODULES[s.id];
    if (!row?.codec?.recordJson || s.region.len === 0) continue;
    if (!opts.dxt && (row.name === 'DXT_POSIX' || row.name === 'DXT_MPIIO')) continue;
    const res = log.decode(s.id);
    if (!res) continue;
    const t = res.table;
    out.write(`${firstMod ? '' : ','}\n  ${JSON.stringify(row.name)}: {"version": ${s.version}, "partial": ${s.partial}, "error": ${JSON.stringify(res.error)}, "records": [`);
    firstMod = false;
    for (let r = 0; r < t.length; r++) {
      const name = log.names.get(t.ids[r]);
      const rec = { id: t.ids[r].toString(), rank: t.ranks.json(0, r), file: name === null ? null : utf8(name), ...row.codec.recordJson(t, r) };
      out.write(`${r ? ',' : ''}\n   ${JSON.stringify(rec)}`);
    }
    out.write('\n  ]}');
  }
  out.write('\n },\n "perf": ' + JSON.stringify(computePerf(log)) + '\n}\n');
}
