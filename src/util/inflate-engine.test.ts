import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { enginesMade, GrowingOutput, inflateStreamInto, StreamsInflater, useInflateSyncForTesting } from './inflate-engine.js';

type Outcome = { bytes: Buffer; used: number } | { error: string; code: unknown };

/**
 * What `inflateSync` gives for one stream when its first output chunk reaches one byte past the cap (zlib then stops
 * there, as inflateStreamInto does): bytes and input used, or the error's message (only the code past the cap).
 */
function reference(input: Buffer, maxOutput: number): Outcome {
  try {
    const res = inflateSync(input, { info: true, chunkSize: maxOutput + 1, maxOutputLength: maxOutput }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { bytes: res.buffer, used: res.engine.bytesWritten };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // past the cap only the code is read (Node's message names its own limit)
    return code === 'ERR_BUFFER_TOO_LARGE' ? { error: 'too large', code } : { error: (err as Error).message, code };
  }
}

/** The same through `inflateStreamInto`, appending to `out` (what was there before must stay). */
function actual(input: Buffer, maxOutput: number, out: GrowingOutput, room: number): Outcome {
  const before = Buffer.from(out.take());
  const start = out.length;
  try {
    const used = inflateStreamInto(input, out, maxOutput, room);
    assert.deepEqual(out.bytes.subarray(0, start), before);
    return { bytes: Buffer.from(out.take().subarray(start)), used };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ERR_BUFFER_TOO_LARGE' ? { error: 'too large', code } : { error: (err as Error).message, code };
  }
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
const call = fc.tuple(region, fc.integer({ min: 63, max: 20000 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 4096 }));

/** Several regions in a row, each stream by stream onto one output, compared with inflateSync stream by stream. */
function agreesWithInflateSync(): void {
  fc.assert(
    fc.property(fc.array(call, { minLength: 1, maxLength: 12 }), ([...calls]) => {
      for (const [input, maxOutput, room, capacity] of calls) {
        const out = new GrowingOutput(capacity);
        // the first stream under the drawn cap, then every stream of the region in turn, as inflateStreams walks it
        assert.deepEqual(actual(input, maxOutput, out, room), reference(input, maxOutput));
        out.length = 0;
        let off = 0;
        for (let k = 0; k < 5 && off < input.length; k++) {
          const got = actual(input.subarray(off), 1 << 20, out, room);
          assert.deepEqual(got, reference(input.subarray(off), 1 << 20));
          if (!('used' in got) || got.used === 0) break;
          off += got.used;
        }
      }
    }),
    { numRuns: 300, seed: 11 },
  );
}

test('inflateStreamInto gives what inflateSync gives: bytes, input used, errors, the output cap (one engine, many calls)', () => {
  agreesWithInflateSync();
});

test('inflateStreamInto through inflateSync (a Node without the engine members) gives the same', () => {
  useInflateSyncForTesting(true);
  try {
    agreesWithInflateSync();
  } finally {
    useInflateSyncForTesting(false);
  }
});

test('inflateStreamInto reuses one zlib engine for every stream, valid, too large or damaged', () => {
  const streams = Array.from({ length: 200 }, (_, i) => deflateSync(Buffer.alloc(100 + i, i)));
  const one = (s: Buffer, maxOutput = 1 << 20) => {
    const out = new GrowingOutput(16);
    inflateStreamInto(s, out, maxOutput, 64);
    return out.take();
  };
  one(streams[0]);
  const before = enginesMade();
  streams.forEach((s, i) => assert.deepEqual(one(s), Buffer.alloc(100 + i, i)));
  assert.throws(() => one(streams[150], 10), (err: NodeJS.ErrnoException) => err.code === 'ERR_BUFFER_TOO_LARGE');
  assert.deepEqual(one(streams[6]), Buffer.alloc(106, 6));
  const bad = Buffer.from(streams[5]);
  bad[0] ^= 0xff;
  const cut = streams[9].subarray(0, 6);
  for (let k = 0; k < 100; k++) {
    assert.throws(() => one(bad), /incorrect header check/);
    assert.throws(() => one(cut), /unexpected end of file/);
    // the reset clears zlib's error: the next stream inflates whole
    assert.deepEqual(one(streams[k]), Buffer.alloc(100 + k, k));
  }
  assert.equal(enginesMade(), before);
});

test('a bomb stops one byte past the cap, whatever room was made, and the buffer grows no further', () => {
  const bomb = deflateSync(Buffer.alloc(50 << 20));
  for (const room of [1, 4096, 64 << 20]) {
    const out = new GrowingOutput(1024);
    assert.throws(() => inflateStreamInto(bomb, out, 100_000, room), (err: NodeJS.ErrnoException) => err.code === 'ERR_BUFFER_TOO_LARGE');
    assert.equal(out.length, 100_001);
    assert.ok(out.bytes.length <= Math.max(1024, 100_001), `capacity ${out.bytes.length}`);
  }
});

/** A region inflated whole, stream after stream, as `inflateStreams` walks one in memory: its bytes or the error. */
function wholeRegion(input: Buffer): { bytes: Buffer } | { error: string } {
  const out = new GrowingOutput(1024);
  let off = 0;
  try {
    while (off < input.length) {
      const used = inflateStreamInto(input.subarray(off), out, 1 << 26, 1024);
      if (used <= 0) return { error: 'zlib stream made no progress' };
      off += used;
    }
    return { bytes: Buffer.from(out.take()) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** The same region given to a `StreamsInflater` in blocks of `block` bytes, written into pieces of `piece` bytes. */
function streamedRegion(input: Buffer, block: number, piece: number): { bytes: Buffer } | { error: string } {
  const inflater = StreamsInflater.create();
  assert.ok(inflater);
  const parts: Uint8Array[] = [];
  let buf = new Uint8Array(piece);
  let n = 0;
  try {
    for (let at = 0; at < input.length; at += block) {
      const end = Math.min(input.length, at + block);
      // a block of its own, as read from a file (zlib may keep pointers into none of it between writes)
      const bytes = Buffer.from(input.subarray(at, end));
      let off = 0;
      while (off < bytes.length) {
        inflater.write(bytes, off, bytes.length - off, buf, n, piece - n);
        assert.ok(inflater.used > 0 || inflater.wrote > 0, 'a write makes progress');
        off += inflater.used;
        n += inflater.wrote;
        if (n === piece) {
          parts.push(buf);
          buf = new Uint8Array(piece);
          n = 0;
        }
      }
      bytes.fill(0xa5);
    }
    for (;;) {
      inflater.finish(buf, n, piece - n);
      n += inflater.wrote;
      if (n < piece) break;
      parts.push(buf);
      buf = new Uint8Array(piece);
      n = 0;
    }
    parts.push(buf.subarray(0, n));
    return { bytes: Buffer.concat(parts) };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    inflater.close();
  }
}

test('StreamsInflater gives what inflating the whole region gives, whatever blocks the input comes in and the pieces it fills', () => {
  fc.assert(
    fc.property(region, fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 }), (input, block, piece) => {
      assert.deepEqual(streamedRegion(input, block, piece), wholeRegion(input));
    }),
    { numRuns: 400, seed: 12 },
  );
  // streams ending exactly where an input block or an output piece ends, and a region cut right after a stream's end
  const a = deflateSync(Buffer.alloc(5000, 1)), b = deflateSync(Buffer.alloc(3000, 2));
  const two = Buffer.concat([a, b]);
  for (const [block, piece] of [[a.length, 5000], [a.length, 8000], [1, 1], [a.length + 1, 4999], [two.length, 5000]]) {
    assert.deepEqual(streamedRegion(two, block, piece), { bytes: Buffer.concat([Buffer.alloc(5000, 1), Buffer.alloc(3000, 2)]) });
  }
  assert.deepEqual(streamedRegion(Buffer.concat([a, b.subarray(0, 2)]), 7, 64), { error: 'unexpected end of file' });
  assert.deepEqual(streamedRegion(Buffer.concat([a, Buffer.from([1, 2, 3])]), 7, 64), wholeRegion(Buffer.concat([a, Buffer.from([1, 2, 3])])));
});

test('a large output grows by pieces, never holding a copy of itself; take() joins them once, byte for byte', () => {
  const out = new GrowingOutput(1024);
  const MiB = 1 << 20;
  let largest = 0;
  for (let i = 0; i < 300; i++) {
    out.reserve(MiB);
    out.bytes.fill(i & 0xff, out.length, out.length + MiB);
    out.length += MiB;
    largest = Math.max(largest, out.bytes.length);
  }
  assert.equal(out.total, 300 * MiB);
  // no buffer ever as large as the output: a bomb running to a 1 GiB cap holds about 1 GiB, not 1 GiB plus a copy
  assert.ok(largest <= 128 * MiB, `largest buffer ${largest}`);
  const all = out.take();
  assert.equal(all.length, 300 * MiB);
  for (let i = 0; i < 300; i++) assert.equal(all[i * MiB + 12345], i & 0xff, `piece ${i}`);
  // most caps a piece as it caps a growing buffer
  const capped = new GrowingOutput(1024);
  capped.reserve(10, 100);
  assert.ok(capped.bytes.length <= 2048);
});
