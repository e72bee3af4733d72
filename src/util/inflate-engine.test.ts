import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { enginesMade, inflateStream } from './inflate-engine.js';

/** What `inflateSync` gives for the same call: bytes and input used, or the error's message and code. */
function reference(input: Buffer, chunkSize: number, maxOutput: number): { bytes: Buffer; used: number } | { error: string; code: unknown } {
  try {
    const res = inflateSync(input, { info: true, chunkSize, maxOutputLength: maxOutput }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { bytes: res.buffer, used: res.engine.bytesWritten };
  } catch (err) {
    return { error: (err as Error).message, code: (err as NodeJS.ErrnoException).code };
  }
}

function actual(input: Buffer, chunkSize: number, maxOutput: number): ReturnType<typeof reference> {
  try {
    const res = inflateStream(input, chunkSize, maxOutput);
    return { bytes: res.buffer, used: res.used };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // past the cap only the code is read (the message names Node's limit differently)
    return code === 'ERR_BUFFER_TOO_LARGE' ? { error: 'too large', code } : { error: (err as Error).message, code };
  }
}

function normalise(r: ReturnType<typeof reference>): ReturnType<typeof reference> {
  return 'error' in r && r.code === 'ERR_BUFFER_TOO_LARGE' ? { error: 'too large', code: r.code } : r;
}

// Streams as Darshan regions hold them: compressible counters and names, one or more streams back to back, at any
// level; then damaged (cut, a byte changed, bytes after the end) or not.
const payload = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 400 })).map(([unit, times]) => new Uint8Array(Array.from({ length: times }, () => [...unit]).flat())),
);
const stream = fc.tuple(payload, fc.integer({ min: 0, max: 9 })).map(([bytes, level]) => deflateSync(bytes, { level }));
const damage = fc.oneof(
  fc.constant((b: Buffer) => b),
  fc.nat().map((at) => (b: Buffer) => b.subarray(0, b.length === 0 ? 0 : at % b.length)),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, x]) => (b: Buffer) => {
    const c = Buffer.from(b);
    if (c.length) c[at % c.length] ^= x;
    return c;
  }),
  fc.uint8Array({ minLength: 1, maxLength: 30 }).map((tail) => (b: Buffer) => Buffer.concat([b, tail])),
);
const region = fc.tuple(fc.array(stream, { minLength: 1, maxLength: 4 }), damage).map(([streams, hurt]) => hurt(Buffer.concat(streams)));
const call = fc.tuple(region, fc.integer({ min: 64, max: 5000 }), fc.integer({ min: 1, max: 20000 }));

test('inflateStream gives what inflateSync gives: bytes, input used, errors, the output cap (one engine, many calls)', () => {
  fc.assert(
    fc.property(fc.array(call, { minLength: 1, maxLength: 12 }), (calls) => {
      // several calls in a row: the engine is reset between streams and replaced after a damaged one
      for (const [input, chunkSize, maxOutput] of calls) {
        assert.deepEqual(actual(input, chunkSize, maxOutput), normalise(reference(input, chunkSize, maxOutput)));
        // and every stream of the region in turn, as inflateStreams walks it
        let off = 0;
        for (let k = 0; k < 5 && off < input.length; k++) {
          const want = normalise(reference(input.subarray(off), chunkSize, 1 << 20));
          const got = actual(input.subarray(off), chunkSize, 1 << 20);
          assert.deepEqual(got, want);
          if (!('used' in got) || got.used === 0) break;
          off += got.used;
        }
      }
    }),
    { numRuns: 400, seed: 11 },
  );
});

test('inflateStream reuses one zlib engine for valid streams and makes another only after a damaged one', () => {
  const streams = Array.from({ length: 200 }, (_, i) => deflateSync(Buffer.alloc(100 + i, i)));
  inflateStream(streams[0], 1024, 1 << 20);
  const before = enginesMade();
  streams.forEach((s, i) => assert.deepEqual(inflateStream(s, 1024, 1 << 20).buffer, Buffer.alloc(100 + i, i)));
  // the cap does not spoil the engine
  assert.throws(() => inflateStream(streams[150], 64, 10), (err: NodeJS.ErrnoException) => err.code === 'ERR_BUFFER_TOO_LARGE');
  assert.deepEqual(inflateStream(streams[6], 64, 1 << 20).buffer, Buffer.alloc(106, 6));
  assert.equal(enginesMade(), before);
  const bad = Buffer.from(streams[5]);
  bad[0] ^= 0xff;
  assert.throws(() => inflateStream(bad, 1024, 1 << 20), /incorrect header check/);
  assert.equal(enginesMade(), before);
  // zlib leaves a failed engine mid-write: the next stream gets a new one, which the streams after it share
  assert.deepEqual(inflateStream(streams[7], 64, 1 << 20).buffer, Buffer.alloc(107, 7));
  assert.deepEqual(inflateStream(streams[8], 64, 1 << 20).buffer, Buffer.alloc(108, 8));
  assert.equal(enginesMade(), before + 1);
});
