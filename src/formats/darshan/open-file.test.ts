import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusLogs } from '../../testing/corpus.js';
import { DarshanLog } from './log.js';
import { MODULES } from './modules/registry.js';

/** What a caller sees of a log, or the error it gets. */
async function everything(log: () => DarshanLog, offThread: boolean | 'always' = false): Promise<unknown> {
  try {
    const l = log();
    const modules: unknown[] = [];
    let streamFailed = false;
    const outcome = (f: () => unknown) => {
      try {
        return f();
      } catch (err) {
        return [(err as Error).constructor.name, (err as Error).message];
      }
    };
    for (const m of MODULES) {
      modules.push([m.name, outcome(() => l.decode(m.id))]);
      const whole = outcome(() => Buffer.from(l.regionBytes(m.id)));
      // off thread: the DXT regions (the ones read in pieces in production)
      const chunks = l.regionChunks(m.id, 4099, m.name.startsWith('DXT_') ? offThread : false);
      if (chunks) {
        // the streamed pieces are the region's bytes, or fail with its error (a piece is kept as a copy: inflated on
        // a thread, its buffer is filled again once the next one is asked for)
        const parts: Uint8Array[] = [];
        let streamed: unknown;
        try {
          for await (const c of chunks) parts.push(Uint8Array.from(c));
          streamed = Buffer.concat(parts);
        } catch (err) {
          streamed = [(err as Error).constructor.name, (err as Error).message];
          streamFailed = true;
        }
        assert.deepEqual(streamed, whole, `${m.name} pieces`);
      }
      modules.push([m.name, Buffer.isBuffer(whole) ? whole.toString('base64') : whole]);
    }
    // The bytes inflated so far count toward the budget; once a streamed region has failed, how many pieces a thread
    // inflated ahead of the failure depends on timing, so the count is compared only when every stream succeeded.
    return { header: l.header, job: l.job, names: l.names, fileBytes: l.fileBytes, slots: l.slots(), modules, inflated: streamFailed ? 'after a failed stream' : l.inflatedBytes };
  } catch (err) {
    return [(err as Error).constructor.name, (err as Error).message];
  }
}

test('a log opened from its file (regions read when used) reads like the whole log in memory', async () => {
  const logs = corpusLogs();
  assert.ok(logs.length > 20);
  for (const { path } of logs) {
    const inMemory = await everything(() => DarshanLog.open(path));
    assert.deepEqual(await everything(() => DarshanLog.openFile(path)), inMemory, path);
    // inflated on a thread of its own (what large DXT regions get): the logs with DXT
    const regions = DarshanLog.open(path).header.moduleRegions;
    if (regions[10].len + regions[11].len > 0) {
      assert.deepEqual(await everything(() => DarshanLog.openFile(path), 'always'), inMemory, `${path} (inflated off thread)`);
    }
  }
});

test('a log opened from its file: damaged and truncated logs fail as they do in memory (inflated in the main thread or off it)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-openfile-'));
  const src = readFileSync(corpusLogs().find((l) => l.path.endsWith('partial_data_dxt.darshan'))!.path);
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['header only', src.subarray(0, 1000)],
    ['cut in the DXT region', src.subarray(0, src.length - 5000)],
    ['damaged DXT stream', Buffer.concat([src.subarray(0, src.length - 5000), Buffer.alloc(4000, 7), src.subarray(src.length - 1000)])],
  ];
  for (const [name, bytes] of cases) {
    const p = join(dir, `${name}.darshan`);
    writeFileSync(p, bytes);
    const inMemory = await everything(() => DarshanLog.open(p));
    assert.deepEqual(await everything(() => DarshanLog.openFile(p)), inMemory, name);
    assert.deepEqual(await everything(() => DarshanLog.openFile(p), 'always'), inMemory, `${name} (inflated off thread)`);
  }
  assert.deepEqual(await everything(() => DarshanLog.openFile(dir)), await everything(() => DarshanLog.open(dir)));
  assert.deepEqual(await everything(() => DarshanLog.openFile(join(dir, 'none'))), await everything(() => DarshanLog.open(join(dir, 'none'))));
});
