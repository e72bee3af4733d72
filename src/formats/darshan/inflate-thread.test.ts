import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusLogs } from '../../testing/corpus.js';
import { deflateSync } from 'node:zlib';
import { decompressRegion, InflateBudget } from './compression.js';
import { inflateFileChunks } from './inflate-thread.js';
import { DarshanLog } from './log.js';

/** A region inflated in memory, stream after stream (`decompressRegion`): its bytes, or its error. */
function inMemory(region: Buffer): unknown {
  try {
    return decompressRegion(region, 0, 'DXT_POSIX', new InflateBudget(1 << 30));
  } catch (err) {
    return [(err as Error).constructor.name, (err as Error).message];
  }
}

/** The same region read from a file and inflated on a thread (by the thread itself, or through zlib streams). */
async function offThread(path: string, length: number, chunk: number, viaStreams: boolean): Promise<unknown> {
  try {
    const parts: Buffer[] = [];
    // a piece is valid until the next one is asked for: keep a copy
    for await (const piece of inflateFileChunks(path, 5, length, 'DXT_POSIX', new InflateBudget(1 << 30), chunk, () => {}, viaStreams)) {
      assert.ok(parts.every((p) => p.length === chunk), 'every piece but the last is whole');
      parts.push(Buffer.from(piece));
    }
    return Buffer.concat(parts);
  } catch (err) {
    return [(err as Error).constructor.name, (err as Error).message];
  }
}

test('the inflating thread gives a zlib region as inflating it in memory does: by the thread itself or through zlib streams, whole, cut or damaged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-inflate-thread-'));
  const path = corpusLogs().find((l) => l.path.endsWith('partial_data_dxt.darshan'))!.path;
  const { off, len } = DarshanLog.open(path).header.moduleRegions[10];
  const dxt = readFileSync(path).subarray(off, off + len);
  const another = deflateSync(Buffer.alloc(70000, 3));
  const cases: [string, Buffer][] = [
    ['whole', dxt],
    ['two regions back to back', Buffer.concat([dxt, another])],
    ['cut inside a stream', dxt.subarray(0, len - 100)],
    ['cut after a stream header', Buffer.concat([dxt, another.subarray(0, 2)])],
    ['damaged in the middle', Buffer.concat([dxt.subarray(0, 3000), Buffer.alloc(2000, 7), dxt.subarray(5000)])],
    ['bytes after the last stream', Buffer.concat([dxt, Buffer.from([1, 2, 3, 4])])],
  ];
  for (const [name, region] of cases) {
    const p = join(dir, `${name}.bin`);
    // the region starts 5 bytes into the file and is followed by bytes that are not its own
    writeFileSync(p, Buffer.concat([Buffer.alloc(5, 9), region, Buffer.alloc(64, 0x78)]));
    const want = inMemory(region);
    for (const chunk of [4099, 1 << 20]) {
      for (const viaStreams of [false, true]) {
        assert.deepEqual(await offThread(p, region.length, chunk, viaStreams), want, `${name}, pieces of ${chunk}, ${viaStreams ? 'zlib streams' : 'the thread'}`);
      }
    }
  }
});
