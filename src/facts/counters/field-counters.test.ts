import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DarshanLog, type DecodeOutcome, type ModuleTable } from '../../formats/darshan/index.js';
import { FixedTable } from '../../formats/darshan/index.js';
import { SHARED } from '../../testing/corpus.js';
import { FactContext, FactUnavailable } from '../fact-context.js';
import { FACTS } from '../registry.js';
import { FactSource, type AbsentCounters, type CounterInput } from '../source.js';
import type { FactName } from '../types.js';
import { DerivedTable } from './trace-counters.js';
import { LAYOUTS, type DerivedModule } from './modules.js';

/** A Darshan log whose POSIX/MPI-IO/STDIO tables lack the `masked` counters, as a derived input would. */
function masked(log: DarshanLog, absentCounters: ReadonlySet<string>): CounterInput {
  const absent: AbsentCounters = { reason: (c) => (absentCounters.has(c) ? 'masked by the test' : null), tolerated: new Set() };
  const tables = new Map<string, DerivedTable>();
  return {
    names: log.names,
    job: log.job,
    header: log.header,
    compressionName: log.compressionName,
    mountOf: (n) => log.mountOf(n),
    slots: () => log.slots(),
    has: (n) => log.has(n),
    table: <T extends ModuleTable>(n: string) => log.table<T>(n),
    absent,
    decode<T extends ModuleTable>(n: string): DecodeOutcome<T> | null {
      const o = log.decode(n);
      const layout = LAYOUTS[n as DerivedModule];
      if (!o || !layout || !(o.table instanceof FixedTable)) return o as DecodeOutcome<T> | null;
      let t = tables.get(n);
      if (!t) {
        const f = o.table;
        tables.set(n, (t = new DerivedTable(layout, f.length, f.ids, f.ranks, f.ints, f.floats, absent)));
      }
      return { table: t as unknown as T, error: o.error };
    },
  };
}

const LOGS = [
  join(SHARED, 'darshan-logs', 'public', 'dxt.darshan'),
  join(SHARED, 'darshan-logs', 'generated', 'ior-healthy-mpiio-coll-large.darshan'),
  join(SHARED, 'darshan-logs', 'generated', 'iopat-straggler-fsync-write.darshan'),
  join(SHARED, 'traces', 'darshan', 'polaris-cug25', '1982294-18188572978586438489.darshan'),
];

/**
 * The declarations `fieldCounters` are complete: with any one declared counter absent, the fact still exists, the
 * fields that declare it are withheld, and every other field is exactly what the full log gives. (A counter a
 * fact reads without declaring it makes the whole fact unavailable, which is safe; a declared counter that also
 * fed an undeclared field would silently give NaN-derived values, which this test forbids.)
 */
test('fieldCounters: an absent counter withholds exactly the fields that declare it', () => {
  let checked = 0;
  for (const path of LOGS) {
    const log = DarshanLog.open(path);
    const full = FactContext.forLog(new FactSource(log));
    for (const [name, def] of Object.entries(FACTS) as [FactName, (typeof FACTS)[FactName]][]) {
      const decl = (def.fieldCounters ?? {}) as Record<string, readonly string[]>;
      const counters = new Set(Object.values(decl).flat());
      const expect = full.tryGet(name) as Record<string, unknown> | null;
      if (!expect) continue;
      for (const c of counters) {
        const ctx = FactContext.forLog(new FactSource(masked(log, new Set([c]))));
        const got = ctx.tryGet(name) as Record<string, unknown> | null;
        assert.ok(got, `${name} without ${c} (${path})`);
        for (const field of Object.keys(expect)) {
          if (decl[field]?.includes(c)) {
            assert.throws(() => got[field], FactUnavailable, `${name}.${field} withheld without ${c}`);
          } else {
            assert.deepStrictEqual(got[field], expect[field], `${name}.${field} unchanged without ${c} (${path})`);
          }
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 300, `${checked} fact × counter cases`);
});

test('a counter a fact reads without declaring it makes the fact unavailable, with the reason', () => {
  const log = DarshanLog.open(LOGS[0]);
  const ctx = FactContext.forLog(new FactSource(masked(log, new Set(['POSIX_F_META_TIME']))));
  assert.equal(ctx.tryGet('posix.metaTime'), null);
  assert.equal(ctx.unavailableReason('posix.metaTime'), 'no posix.metaTime: POSIX_F_META_TIME cannot be derived (masked by the test)');
  assert.throws(() => ctx.get('posix.metaTime'), (e: unknown) => e instanceof FactUnavailable && e.message === ctx.unavailableReason('posix.metaTime'));
  // a full log is never affected
  assert.equal(FactContext.forLog(new FactSource(log)).unavailableReason('posix.metaTime'), null);
});
