import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DarshanLog } from './log.js';
import { DarshanFormatError } from './errors.js';
import { LimitError } from '../../contract/errors.js';
import { logToInput, writeLog } from './writer.js';
import { printParserText } from './print/parser-text.js';
import { printDxtText } from './print/dxt-text.js';
import { StringOut } from './print/text-out.js';
import { MODULES } from './modules/registry.js';
import { corpusLogs, REPO_ROOT } from '../../testing/corpus.js';

/**
 * Reads everything a user can ask of a log. Returns normally or throws one of the library's errors, nothing else.
 * The decompression budget bounds every draw, so random fast-check seeds are safe (a drawn bomb stops at 64 MiB).
 */
async function readAll(bytes: Uint8Array): Promise<void> {
  const log = DarshanLog.fromBytes(bytes, '<fuzz>', { maxInflate: 64 << 20 });
  for (const m of MODULES) log.decode(m.id);
  printParserText(log, new StringOut(), () => {});
  await printDxtText(log, new StringOut(), () => {});
  // DXT streamed in batches of records from small pieces, as a large region is printed
  await printDxtText(DarshanLog.fromBytes(bytes, '<fuzz>', { maxInflate: 64 << 20 }), new StringOut(), () => {}, { stream: true, chunk: 4099 });
}

async function expectCleanFailure(bytes: Uint8Array): Promise<boolean> {
  try {
    await readAll(bytes);
    return true;
  } catch (err) {
    if (err instanceof DarshanFormatError || err instanceof LimitError) return true;
    throw new Error(`unexpected ${(err as Error).name}: ${(err as Error).message}`);
  }
}

// A spread of real logs: every log version, big-endian, DXT, Lustre, heatmaps, APMPI, partial flags.
const picks = [
  'mpi-io-test-ppc64-3.0.0.darshan', 'mpi-io-test-ppc64-3.1.3.darshan', 'mpi-io-test-x86_64-3.0.0.darshan',
  'mpi-io-test-x86_64-3.2.0.darshan', 'mpi-io-test-x86_64-3.4.0.darshan', 'mpi-io-test-x86_64-3.5.0.darshan',
  'ior-hdf5-indep-small-write-4k.darshan', 'iopat-meta-heavy-fpp-dxt-truncated.darshan', 'dxt.darshan',
];
const samples = corpusLogs().filter((l) => picks.includes(l.name));
const real = samples.map((l) => new Uint8Array(readFileSync(l.path)));
// The same logs rewritten without compression, so that corruption reaches the record decoders directly.
const plain = samples.map((l) => writeLog(logToInput(DarshanLog.open(l.path)).input, { compression: 2 }));

test('the robustness corpus covers the intended logs', () => {
  assert.equal(samples.length, picks.length);
});

test('truncation at any byte gives a clean error or a reading, never a crash', async () => {
  for (const bytes of [...real, ...plain]) {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), (k) => expectCleanFailure(bytes.subarray(0, k))), { numRuns: 60 });
  }
});

test('every truncation of a small log is handled', async () => {
  const bytes = real[samples.findIndex((l) => l.name === 'mpi-io-test-x86_64-3.0.0.darshan')];
  for (let k = 0; k < bytes.length; k++) assert.ok(await expectCleanFailure(bytes.subarray(0, k)));
});

test('random bit flips give a clean error or a reading, never a crash or hang', async () => {
  for (const bytes of [...real, ...plain]) {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.nat(7)), { minLength: 1, maxLength: 8 }), (flips) => {
        const b = new Uint8Array(bytes);
        for (const [at, bit] of flips) b[at] ^= 1 << bit;
        return expectCleanFailure(b);
      }),
      { numRuns: 80 },
    );
  }
});

test('absurd lengths and counts are refused without allocating them', () => {
  const base = plain[samples.findIndex((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')];
  const view = new DataView(base.buffer, base.byteOffset, base.byteLength);
  // A region length of 2^60.
  const big = new Uint8Array(base);
  new DataView(big.buffer).setBigUint64(40, 1n << 60n, true);
  assert.throws(() => DarshanLog.fromBytes(big), DarshanFormatError);
  // A DXT record claiming 2^60 segments: the decoder stops with an error instead of allocating.
  const dxtOff = Number(view.getBigUint64(48 + 16 * 10, true));
  assert.ok(dxtOff > 0);
  const dxt = new Uint8Array(base);
  new DataView(dxt.buffer).setBigInt64(dxtOff + 88, 1n << 60n, true);
  const res = DarshanLog.fromBytes(dxt).decode('DXT_POSIX')!;
  assert.equal(res.table.length, 0);
  assert.match(res.error!, /extend past the end/);
});

test('unknown and future versions, unknown modules and non-logs get one clear message', () => {
  const bytes = real[0];
  const future = new Uint8Array(bytes);
  future.set(Buffer.from('3.99'), 0);
  assert.throws(() => DarshanLog.fromBytes(future), /unsupported Darshan log version "3.99"/);
  assert.throws(() => DarshanLog.fromBytes(Buffer.from('hello world, this is not a log at all')), /not a Darshan log/);
  assert.throws(() => DarshanLog.fromBytes(new Uint8Array(0)), /empty file/);
  // An unknown module id (40) with data: skipped with a warning, the rest read.
  const input = logToInput(DarshanLog.open(samples[samples.length - 1].path)).input;
  const withUnknown = writeLog({ ...input, modules: [...input.modules, { id: 40, raw: new Uint8Array(64), version: 1 }] });
  const log = DarshanLog.fromBytes(withUnknown);
  const warnings: string[] = [];
  const out = new StringOut();
  printParserText(log, out, (w) => warnings.push(w));
  assert.match(out.toString(), /# <UNKNOWN> module \(id 40\): \d+ bytes \(compressed\), ver=1/);
  assert.deepEqual(warnings.filter((w) => /unknown/.test(w)), ['# Warning: module id 40 is unknown. You may need a newer version of IOLens to parse it.']);
});

test('bzip2 and uncompressed logs read the same as zlib ones', () => {
  const src = DarshanLog.open(samples.find((l) => l.name === 'ior-hdf5-indep-small-write-4k.darshan')!.path);
  const input = logToInput(src).input;
  const text = (b: Uint8Array) => {
    const o = new StringOut();
    printParserText(DarshanLog.fromBytes(b), o, () => {});
    return o.toString().split('\n').filter((l) => !l.startsWith('#')).join('\n');
  };
  const zlib = text(writeLog(input));
  assert.equal(text(writeLog(input, { compression: 2 })), zlib);
  const bz = writeLog(input, { compression: 1, compress: (b) => execFileSync('bzip2', ['-9', '-c'], { input: b }) });
  assert.equal(DarshanLog.fromBytes(bz).compressionName, 'BZIP2');
  assert.equal(text(bz), zlib);
});

test('the CLI reports bad input in one line with a non-zero exit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-bad-'));
  const cases: [string, Uint8Array | null, RegExp][] = [
    ['empty.darshan', new Uint8Array(0), /empty file/],
    ['text.darshan', Buffer.from('#!/bin/sh\necho hi\n'), /not a Darshan log/],
    ['cut.darshan', real[0].subarray(0, 700), /truncated|corrupt/],
    ['missing.darshan', null, /no such file/],
  ];
  for (const [name, bytes, re] of cases) {
    const path = join(dir, name);
    if (bytes) writeFileSync(path, bytes);
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'parse', path], { encoding: 'utf8', timeout: 30_000 });
    assert.notEqual(r.status, 0, name);
    assert.equal(r.stdout, '', name);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${name}: ${r.stderr}`);
    assert.match(lines[0], re);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
  const dirRun = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'parse', dir], { encoding: 'utf8' });
  assert.equal(dirRun.status, 2);
  assert.match(dirRun.stderr, /directory/);
});
