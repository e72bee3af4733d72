import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusLogs } from '../../testing/corpus.js';
import { DarshanLog } from './log.js';
import { MODULES } from './modules/registry.js';

/** What a caller sees of a log, or the error it gets. */
async function everything(log: () => DarshanLog): Promise<unknown> {
  try {
    const l = log();
    const modules: unknown[] = [];
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
      const chunks = l.regionChunks(m.id, 4099);
      if (chunks) {
        // the streamed pieces are the region's bytes, or fail with its error
        const parts: Uint8Array[] = [];
        let streamed: unknown;
        try {
          for await (const c of chunks) parts.push(c);
          streamed = Buffer.concat(parts);
        } catch (err) {
          streamed = [(err as Error).constructor.name, (err as Error).message];
        }
        assert.deepEqual(streamed, whole, `${m.name} pieces`);
      }
      modules.push([m.name, Buffer.isBuffer(whole) ? whole.toString('base64') : whole]);
    }
    return { header: l.header, job: l.job, names: l.names, fileBytes: l.fileBytes, slots: l.slots(), modules, inflated: l.inflatedBytes };
  } catch (err) {
    return [(err as Error).constructor.name, (err as Error).message];
  }
}

test('a log opened from its file (regions read when used) reads like the whole log in memory', async () => {
  const logs = corpusLogs();
  assert.ok(logs.length > 20);
  for (const { path } of logs) {
    assert.deepEqual(await everything(() => DarshanLog.openFile(path)), await everything(() => DarshanLog.open(path)), path);
  }
});

test('a log opened from its file: damaged and truncated logs fail as they do in memory', async () => {
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
    assert.deepEqual(await everything(() => DarshanLog.openFile(p)), await everything(() => DarshanLog.open(p)), name);
  }
  assert.deepEqual(await everything(() => DarshanLog.openFile(dir)), await everything(() => DarshanLog.open(dir)));
  assert.deepEqual(await everything(() => DarshanLog.openFile(join(dir, 'none'))), await everything(() => DarshanLog.open(join(dir, 'none'))));
});
