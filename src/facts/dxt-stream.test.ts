import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { DarshanLog, type DxtTable } from '../formats/darshan/index.js';
import { dxtPosix } from '../formats/darshan/modules/dxt.js';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { writeLogWithDxtRegion } from '../testing/dxt-region.js';
import { ChunkWriter, TraceDicts } from '../formats/trace/model.js';
import { readDxtStreaming } from '../formats/trace/readers/dxt.js';
import { corpusLogs } from '../testing/corpus.js';
import { DxtFacts, seedDxtFacts } from './dxt-stream.js';
import { FactContext } from './fact-context.js';
import { FactSource } from './source.js';

/** The facts that read DXT segments, and the log's decoding errors, computed over a fresh log. */
function facts(ctx: FactContext) {
  return { ranks: ctx.tryGet('dxt.posixRanks'), writes: ctx.tryGet('dxt.writes'), errors: ctx.tryGet('log')?.decodeErrors, time: ctx.tryGet('io.time')?.breakdown };
}

function whole(path: string) {
  return facts(FactContext.forLog(new FactSource(DarshanLog.openFile(path))));
}

/** The same facts summed from the batches a trace reader streams (small pieces, so records span several). */
async function tapped(path: string) {
  const log = DarshanLog.openFile(path);
  const src = new FactSource(log);
  const tap = new DxtFacts(FactContext.forLog(src), src, log);
  await readDxtStreaming(path, new ChunkWriter(new TraceDicts(), () => {}), {}, false, 4099, tap);
  assert.ok(tap.complete(), path);
  tap.seed();
  return facts(tap.facts);
}

async function seeded(path: string) {
  const log = DarshanLog.openFile(path);
  const src = new FactSource(log);
  const ctx = FactContext.forLog(src);
  await seedDxtFacts(ctx, src, log, { chunk: 4099, offThread: false });
  return facts(ctx);
}

test('DXT facts summed batch by batch equal those of the whole table, on every shared log with DXT', async () => {
  let logs = 0;
  let synced = 0;
  for (const l of corpusLogs()) {
    const log = DarshanLog.openFile(l.path);
    if (!log.has('DXT_POSIX') && !log.has('DXT_MPIIO')) continue;
    const want = whole(l.path);
    // streamable logs only: the reader decodes the others whole (no batches to tap)
    if (log.header.compression === 0 && log.header.byteOrder === 'little') assert.deepEqual(await tapped(l.path), want, l.name);
    assert.deepEqual(await seeded(l.path), want, l.name);
    logs++;
    if (want.writes && Object.keys(want.writes).length) synced++;
  }
  // the corpus holds DXT logs, some of whose layers synced (their write time is split by DXT's write calls)
  assert.ok(logs >= 10, `${logs} logs with DXT`);
  assert.ok(synced >= 1, `${synced} with synced DXT modules`);
});

test('DXT facts of damaged regions: unavailable, and the log fact names the same error, streamed or whole', async () => {
  const input = synthesizeLog({ seed: 5, posixFiles: 4, nprocs: 3, dxtSegments: 4000 });
  const table = input.modules.find((m) => m.id === 10)!.table as DxtTable;
  const raw = dxtPosix.encode!(table);
  const second = 104 + 40 * (table.writeCount[0] + table.readCount[0]);
  const damagedHead = Buffer.from(raw);
  damagedHead.writeBigInt64LE(-1n, second + 88);
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dxt-facts-'));
  const cases: [string, Uint8Array][] = [
    ['sound, two streams', Buffer.concat([deflateSync(raw.subarray(0, 30_000)), deflateSync(raw.subarray(30_000))])],
    ['segments cut', deflateSync(raw.subarray(0, raw.length - 100))],
    ['damaged head', deflateSync(damagedHead)],
  ];
  for (const [name, stored] of cases) {
    const path = join(dir, `${name}.darshan`);
    writeLogWithDxtRegion(input, stored, path);
    const want = whole(path);
    if (name.startsWith('sound')) {
      assert.ok(want.ranks && want.ranks.ids.length === table.length, name);
      assert.deepEqual(want.errors, [], name);
    } else {
      assert.equal(want.ranks, null, name);
      assert.equal(want.errors?.length, 1, name);
      assert.match(want.errors![0], /^DXT_POSIX: /, name);
    }
    assert.deepEqual(await tapped(path), want, name);
    assert.deepEqual(await seeded(path), want, name);
  }
});
