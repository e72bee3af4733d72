import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DarshanLog, type FixedTable } from '../formats/darshan/index.js';
import { corpusLogs } from '../testing/corpus.js';
import { FactContext } from '../facts/fact-context.js';
import { FactSource } from '../facts/source.js';
import { CounterBuilder } from '../facts/counters/builder.js';
import { TraceCounters } from '../facts/counters/trace-counters.js';
import type { DerivedModule } from '../facts/counters/modules.js';
import { readDxt } from '../formats/trace/readers/dxt.js';
import { ChunkWriter, TraceDicts } from '../formats/trace/model.js';

/**
 * Where a Darshan log also holds DXT segments, the counters derived from the segments agree with the log's own
 * counters for everything DXT can determine, record by record and in total, and so do the facts computed both ways.
 * The differences that exist by construction are asserted as such:
 * - DXT ran out of memory (the module is marked partial): derived counts and bytes are at most the log's;
 * - fsync/fdatasync (MPI_File_sync) time is write time for Darshan and absent from DXT: derived write time is
 *   below the log's exactly when the record has syncs;
 * - Darshan restarts its consecutive/sequential/stride bookkeeping at every open, which DXT does not show: each
 *   open after a rank's first changes at most one read and one write classification;
 * - big-endian logs before POSIX v4 hold unswapped F_MAX_READ/WRITE_TIME doubles (darshan-util reads them as
 *   garbage, and so does IOLens), so those two are not compared there.
 * The log's own shared-record structure decides which files are reduced to rank −1, as the runtime decided it from
 * opens the segments do not show.
 */

interface Derived {
  readonly log: DarshanLog;
  readonly counters: TraceCounters;
  readonly partial: boolean;
}

const derived = new Map<string, Derived | null>();

/** The log and the counters derived from its DXT segments of one module (read once per log and module). */
function deriveFromDxt(path: string, mod: DerivedModule): Derived | null {
  const key = `${mod}:${path}`;
  if (!derived.has(key)) derived.set(key, derive(path, mod));
  return derived.get(key)!;
}

function derive(path: string, mod: DerivedModule): Derived | null {
  const log = DarshanLog.open(path);
  const dxt = mod === 'POSIX' ? 'DXT_POSIX' : 'DXT_MPIIO';
  if (!log.has(dxt) || !log.has(mod)) return null;
  const own = log.decode(mod)!.table as FixedTable;
  const shared = new Set<bigint>();
  const ranks = own.ranks.col(0);
  for (let r = 0; r < own.length; r++) if (ranks[r] === -1) shared.add(own.ids[r]);
  const byName = new Map<string, bigint>();
  for (const [id, name] of log.names.entries()) byName.set(name, id);
  const b = new CounterBuilder();
  readDxt(path, new ChunkWriter(new TraceDicts(), b.sink), [dxt]);
  const start = Number(log.job.startTimeSec) + Number(log.job.startTimeNsec) / 1e9;
  const counters = new TraceCounters(b, {
    format: 'dxt',
    timeOrigin: start,
    nprocs: Number(log.job.nprocs),
    shared: (_m, id) => shared.has(id),
    recordId: (name) => (/^<record ([0-9a-f]+)>$/.test(name) ? BigInt(`0x${name.slice(8, -1)}`) : byName.get(name)),
    job: { exe: log.job.exe, startSeconds: start, endSeconds: start + log.job.runTimeSeconds },
  });
  return { log, counters, partial: !!log.slots().find((s) => s.name === dxt)?.partial };
}

const DXT_LOGS = corpusLogs().filter((c) => {
  try {
    return DarshanLog.open(c.path).has('DXT_POSIX');
  } catch {
    return false;
  }
});

const COUNT = /^(POSIX|MPIIO)_(READS|WRITES|BYTES_READ|BYTES_WRITTEN|SIZE_)/;
const ORDER = /^POSIX_(CONSEC_|SEQ_|STRIDE\d_)/;

interface Stats {
  logs: number;
  records: number;
  values: number;
  exact: number;
  /** Differences by cause: partial DXT, sync time, reopened files, unswapped big-endian doubles. */
  partial: number;
  sync: number;
  reopen: number;
  garbled: number;
}

function compareModule(mod: DerivedModule, stats: Stats, unpaired: string[]): void {
  for (const c of DXT_LOGS) {
    const d = deriveFromDxt(c.path, mod);
    if (!d) continue;
    const { log, counters, partial } = d;
    const own = log.decode(mod)!.table as FixedTable;
    const mine = counters.tables.get(mod);
    if (!mine) continue;
    const row = new Map<string, number>();
    const ownRanks = own.ranks.col(0);
    for (let r = 0; r < own.length; r++) row.set(`${own.ids[r]}:${ownRanks[r]}`, r);
    const myRanks = mine.ranks.col(0);
    const pairs: [number, number][] = [];
    for (let r = 0; r < mine.length; r++) {
      const o = row.get(`${mine.ids[r]}:${myRanks[r]}`);
      if (o !== undefined) pairs.push([r, o]);
    }
    if (pairs.length === 0) {
      // Anonymised logs whose DXT record ids were hashed apart from the module's: nothing to pair.
      unpaired.push(c.name);
      continue;
    }
    assert.equal(pairs.length, mine.length, `${c.name}: every derived ${mod} record has its log record`);
    stats.logs++;
    const P = mod === 'POSIX' ? 'POSIX' : 'MPIIO';
    const syncs = mod === 'POSIX' ? own.int('POSIX_FSYNCS').map((v, i) => v + own.int('POSIX_FDSYNCS')[i]) : own.int('MPIIO_SYNCS');
    const opens = mod === 'POSIX' ? own.int('POSIX_OPENS') : null;
    const nprocs = Number(log.job.nprocs);
    const garbledMax = log.header.byteOrder === 'big' && own.version < 4;
    const names = [...mine.intNames, ...mine.floatNames].filter((n) => !counters.absentReasons.has(n));
    for (const [m, o] of pairs) {
      stats.records++;
      const extraOpens = opens ? opens[o] - (ownRanks[o] === -1 ? nprocs : 1) : 0;
      for (const n of names) {
        const isFloat: boolean = mine.floatNames.includes(n);
        const got: number = isFloat ? mine.float(n)[m] : mine.int(n)[m];
        const want: number = isFloat ? own.float(n)[o] : own.int(n)[o];
        const what = `${c.name} ${n} rank ${ownRanks[o]} id ${own.ids[o]}`;
        stats.values++;
        const equal = isFloat ? Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)) : got === want;
        if (equal) {
          stats.exact++;
          continue;
        }
        if (partial) {
          stats.partial++;
          // Missing segments: counts, bytes, times and later timestamps can only be lower; order-based counters change.
          if (COUNT.test(n) || /_TIME$|END_TIMESTAMP$/.test(n)) assert.ok(got <= want, `${what}: partial DXT gives at most the log's (${got} vs ${want})`);
          continue;
        }
        if (n === `${P}_F_WRITE_TIME`) {
          stats.sync++;
          assert.ok(syncs[o] > 0 && got < want, `${what}: only sync time may be missing (${got} vs ${want}, ${syncs[o]} syncs)`);
          continue;
        }
        if (garbledMax && /^POSIX_F_MAX_(READ|WRITE)_TIME$/.test(n)) {
          stats.garbled++;
          continue;
        }
        if (ORDER.test(n) && extraOpens > 0) {
          stats.reopen++;
          if (/^POSIX_(CONSEC|SEQ)_/.test(n)) assert.ok(Math.abs(got - want) <= extraOpens, `${what}: ${got} vs ${want} with ${extraOpens} reopen(s)`);
          continue;
        }
        assert.fail(`${what}: derived ${got}, log ${want}`);
      }
    }
    // Totals: every log record that read or wrote has DXT segments (unless DXT was truncated).
    if (!partial) {
      for (const n of [`${P}_BYTES_READ`, `${P}_BYTES_WRITTEN`, ...(mod === 'POSIX' ? ['POSIX_READS', 'POSIX_WRITES'] : [])]) {
        const sum = (t: FixedTable) => t.int(n).reduce((a, v) => a + v, 0);
        assert.equal(sum(mine), sum(own), `${c.name} total ${n}`);
      }
    }
  }
}

test('DXT-derived POSIX and MPI-IO counters equal the log’s own, record by record and in total, on every shared log with DXT', (t) => {
  const stats: Stats = { logs: 0, records: 0, values: 0, exact: 0, partial: 0, sync: 0, reopen: 0, garbled: 0 };
  const unpaired: string[] = [];
  compareModule('POSIX', stats, unpaired);
  const posix = { ...stats };
  compareModule('MPI-IO', stats, unpaired);
  assert.ok(posix.logs >= 40, `${posix.logs} logs with DXT_POSIX compared`);
  assert.deepEqual(unpaired, ['nonmpi_dxt_anonymized.darshan']);
  assert.ok(stats.values > 100000, `${stats.values} values compared`);
  t.diagnostic(`agreement: POSIX ${JSON.stringify(posix)}; POSIX + MPI-IO ${JSON.stringify(stats)}`);
});

test('facts computed from DXT-derived counters agree with the log’s for the fields DXT determines', () => {
  let compared = 0;
  for (const c of DXT_LOGS) {
    const d = deriveFromDxt(c.path, 'POSIX');
    if (!d || d.partial) continue;
    const ids = new Set(d.counters.tables.get('POSIX')?.ids ?? []);
    if (!d.log.decode('POSIX')!.table.ids.some((id: bigint) => ids.has(id))) continue; // unpaired (anonymised)
    const fromLog = FactContext.forLog(new FactSource(d.log));
    const fromDxt = FactContext.forLog(new FactSource(d.counters));
    const a = fromLog.get('posix.totals');
    const b = fromDxt.get('posix.totals');
    for (const k of ['reads', 'writes', 'bytesRead', 'bytesWritten', 'smallReads', 'smallWrites', 'maxByteReadMax', 'maxByteWrittenMax'] as const) {
      assert.equal(b[k], a[k], `${c.name} posix.totals.${k}`);
    }
    // Consecutive and sequential totals agree where no rank reopened a file it accessed.
    const own = d.log.decode('POSIX')!.table as FixedTable;
    const ranks = own.ranks.col(0);
    const opens = own.int('POSIX_OPENS');
    const io = own.int('POSIX_READS').map((v, i) => v + own.int('POSIX_WRITES')[i]);
    const reopened = [...opens].some((o, i) => io[i] > 0 && o > (ranks[i] === -1 ? Number(d.log.job.nprocs) : 1));
    if (!reopened) for (const k of ['consecReads', 'consecWrites', 'seqReads', 'seqWrites'] as const) assert.equal(b[k], a[k], `${c.name} posix.totals.${k}`);
    // posix.byFile: the files DXT saw have the log's values; the log's other files moved no data.
    const fa = fromLog.get('posix.byFile');
    const fb = fromDxt.get('posix.byFile');
    const at = new Map<bigint, number>();
    fa.ids.forEach((id, i) => at.set(id, i));
    const seen = new Set<number>();
    for (let i = 0; i < fb.ids.length; i++) {
      const j = at.get(fb.ids[i]);
      assert.ok(j !== undefined, `${c.name}: file ${fb.ids[i]} in the log`);
      seen.add(j);
      for (const k of ['reads', 'writes', 'smallReads', 'smallWrites', 'bytesRead', 'bytesWritten', 'maxByteRead', 'maxByteWritten'] as const) {
        assert.equal(fb[k][i], fa[k][j], `${c.name} posix.byFile.${k} of ${fb.ids[i]}`);
      }
    }
    for (let j = 0; j < fa.ids.length; j++) if (!seen.has(j)) assert.equal(fa.reads[j] + fa.writes[j], 0, `${c.name}: file ${fa.ids[j]} without DXT segments moved no data`);
    compared++;
  }
  assert.ok(compared >= 40, `${compared} logs`);
});
