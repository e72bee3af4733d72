import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { LimitError } from '../../contract/errors.js';
import { DEFAULT_MAX_INFLATE } from '../../util/limits.js';
import { REPO_ROOT } from '../../testing/corpus.js';
import { DarshanFormatError } from './errors.js';
import { DarshanLog } from './log.js';
import { BZIP2_BLOCK_CHARGE, RATIO_FLOOR } from './compression.js';
import { MODULES } from './modules/registry.js';
import { printDxtText } from './print/dxt-text.js';
import { printParserText } from './print/parser-text.js';
import { StringOut } from './print/text-out.js';
import { synthesizeLog } from './synth.js';
import { writeLog, type LogInput, type ModuleInput } from './writer.js';

// Hostile logs built here, byte by byte: every one must give a reading or one typed error, in bounded time and memory.

const CLI = join(REPO_ROOT, 'bin', 'iolens.js');
const HEATMAP_ID = MODULES.findIndex((m) => m.name === 'HEATMAP');
const base = synthesizeLog({ seed: 12, posixFiles: 3, nprocs: 2 });

function iolens(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'latin1', timeout: 60_000, maxBuffer: 64 << 20 });
}

/** A log whose module `id` region is `stored` as written (already compressed), the other regions zlib. */
function logWithRegion(id: number, stored: Uint8Array, version: number, extra: readonly ModuleInput[] = [], compression: 0 | 1 = 0): Uint8Array {
  const marker = new Uint8Array(8);
  const input: LogInput = { ...base, modules: [...base.modules.filter((m) => m.id !== id && !extra.some((e) => e.id === m.id)), ...extra, { id, raw: marker, version }] };
  const bz = (b: Uint8Array) => execFileSync('bzip2', ['-9', '-c'], { input: b });
  return writeLog(input, { compression, compress: (b) => (b === marker ? stored : compression === 1 ? bz(b) : deflateSync(b)) });
}

/** A LUSTRE v2 record: one component whose STRIPE_COUNT is `stripeCount`, holding `osts` OST ids. */
function lustreRecord(id: bigint, stripeCount: bigint, osts: number): Buffer {
  const b = Buffer.alloc(32 + 72 + 8 * osts);
  b.writeBigUInt64LE(id, 0);
  b.writeBigInt64LE(0n, 8);
  b.writeBigInt64LE(1n, 16); // components
  b.writeBigInt64LE(BigInt(osts), 24); // OST ids held
  const c = 32;
  b.writeBigInt64LE(1n << 20n, c); // stripe size
  b.writeBigInt64LE(stripeCount, c + 8);
  b.writeBigInt64LE(0n, c + 16); // raid0
  b.writeBigInt64LE(16n, c + 24); // init
  b.writeBigInt64LE(0n, c + 32);
  b.writeBigInt64LE(-1n, c + 40);
  b.writeBigInt64LE(0n, c + 48);
  for (let j = 0; j < osts; j++) b.writeBigInt64LE(BigInt(10 + j), 104 + 8 * j);
  return b;
}

test('item 1: a changed LUSTRE stripe count cannot make parse print without end', { timeout: 60_000 }, async () => {
  const id = [...base.names][0][0];
  const good = Buffer.concat([lustreRecord(id, 2n, 2), lustreRecord(id + 1n, 2n, 2)]);
  // One changed 8-byte field: the first record now claims 2^40 OST ids.
  const bad = Buffer.from(good);
  bad.writeBigInt64LE(1n << 40n, 32 + 8);
  for (const [bytes, records] of [[good, 2], [bad, 0]] as const) {
    const log = DarshanLog.fromBytes(logWithRegion(8, deflateSync(bytes), 2));
    const res = log.decode('LUSTRE')!;
    assert.equal(res.table.length, records);
    const warnings: string[] = [];
    const out = new StringOut();
    printParserText(log, out, (w) => warnings.push(w));
    await printDxtText(log, new StringOut(), () => {});
    const text = out.toString();
    assert.ok(text.length < 200_000, `${text.length} characters printed`);
    if (records === 0) {
      assert.match(res.error!, /stripe counts claim 1099511627776 OST ids but it holds 2/);
      assert.ok(warnings.some((w) => /failed to parse LUSTRE module record/.test(w)));
      assert.doesNotMatch(text, /LUSTRE_COMP1_OST_ID_/);
    } else assert.equal(text.match(/LUSTRE_COMP1_OST_ID_\d+\t1[01]\t/g)!.length, 4);
  }
  // Records that claim a few more ids than they hold (written by some runtimes) still print as darshan-parser does.
  const short = DarshanLog.fromBytes(logWithRegion(8, deflateSync(lustreRecord(id, 5n, 2)), 2));
  const out = new StringOut();
  printParserText(short, out, () => {});
  assert.deepEqual(out.toString().match(/LUSTRE_COMP1_OST_ID_\d+\t\d+/g), ['LUSTRE_COMP1_OST_ID_0\t10', 'LUSTRE_COMP1_OST_ID_1\t11', 'LUSTRE_COMP1_OST_ID_2\t0', 'LUSTRE_COMP1_OST_ID_3\t0', 'LUSTRE_COMP1_OST_ID_4\t0']);
});

/** `copies` back-to-back zlib streams of `each` zero bytes (as a region holds one stream per rank). */
function zlibBomb(each: number, copies: number): Buffer {
  const one = deflateSync(Buffer.alloc(each), { level: 9 });
  return Buffer.concat(Array.from({ length: copies }, () => one));
}

/** `copies` back-to-back bzip2 streams of `each` zero bytes, made with the bzip2 program. */
function bzip2Bomb(each: number, copies: number): Buffer {
  const one = execFileSync('bzip2', ['-9', '-c'], { input: Buffer.alloc(each) });
  return Buffer.concat(Array.from({ length: copies }, () => one));
}

test('item 2: the default decompression budget is 1 GiB per log', () => {
  assert.equal(DEFAULT_MAX_INFLATE, 2 ** 30);
});

test('item 2: a zlib bomb stops at the budget, exactly at the limit, with a LimitError', { timeout: 60_000 }, () => {
  // 3 MB of streams inflating to 3 GiB: more than the budget and more than one region may hold.
  const bytes = logWithRegion(1, zlibBomb(10 << 20, 300), 4);
  const log = DarshanLog.fromBytes(bytes, 'bomb.darshan', { maxInflate: 64 << 20 });
  assert.throws(() => log.decode('POSIX'), (e: unknown) => e instanceof LimitError && /the POSIX region inflates past the log's decompression budget of 64 MiB \(raise it with --max-inflate\)/.test(e.message));
  assert.ok(log.inflatedBytes <= 64 << 20);
  // The limit is exact: a region of exactly N bytes reads with a budget of N (job and names included), not N - 1.
  const exact = logWithRegion(1, zlibBomb(1 << 20, 3), 4);
  const need = DarshanLog.fromBytes(exact);
  need.decode('POSIX');
  const total = need.inflatedBytes;
  assert.ok(total > 3 << 20);
  assert.doesNotThrow(() => DarshanLog.fromBytes(exact, 'x', { maxInflate: total }).decode('POSIX'));
  assert.throws(() => DarshanLog.fromBytes(exact, 'x', { maxInflate: total - 1 }).decode('POSIX'), LimitError);
});

test('a bomb spends the budget once: later reads are refused at once, naming the region that spent it', () => {
  // a report decodes a region once per fact that needs it: a 1.5 GiB zlib region took 100 s and 2.7 GB before
  const bytes = logWithRegion(1, zlibBomb(10 << 20, 300), 4, [{ id: 3, raw: new Uint8Array(4096), version: 2 }]);
  const log = DarshanLog.fromBytes(bytes, 'bomb.darshan', { maxInflate: 64 << 20 });
  const refused = /^the POSIX region inflates past the log's decompression budget of 64 MiB/;
  assert.throws(() => log.decode('POSIX'), (e: unknown) => e instanceof LimitError && refused.test(e.message));
  const spent = log.inflatedBytes;
  assert.ok(spent <= 64 << 20);
  for (const m of ['POSIX', 'POSIX', 'STDIO']) assert.throws(() => log.decode(m), (e: unknown) => e instanceof LimitError && refused.test(e.message), m);
  // counted: nothing more was inflated
  assert.equal(log.inflatedBytes, spent);
});

test('item 2: the budget is shared by all regions of a log', () => {
  const extra: ModuleInput[] = [{ id: 2, raw: new Uint8Array(400 << 10), version: 3 }, { id: 9, raw: new Uint8Array(400 << 10), version: 2 }];
  const log = DarshanLog.fromBytes(logWithRegion(1, deflateSync(Buffer.alloc(400 << 10)), 4, extra), 'x', { maxInflate: 1 << 20 });
  log.decode('POSIX');
  log.decode('MPI-IO');
  assert.throws(() => log.decode('STDIO'), (e: unknown) => e instanceof LimitError && /STDIO region/.test(e.message));
  // A region inflated again (regionBytes after decode) is not charged twice.
  const again = DarshanLog.fromBytes(logWithRegion(1, deflateSync(Buffer.alloc(400 << 10)), 4), 'x', { maxInflate: 1 << 20 });
  again.decode('POSIX');
  const used = again.inflatedBytes;
  assert.equal(again.regionBytes(1).length, 400 << 10);
  assert.equal(again.inflatedBytes, used);
});

test('item 2: a bzip2 bomb stops at the budget while decoding', { timeout: 60_000 }, () => {
  // 200 streams of 45 MB of zeros (9 GB) in a few kB.
  const bytes = logWithRegion(1, bzip2Bomb(45 << 20, 200), 4, [], 1);
  assert.ok(bytes.length < 64 << 10);
  const log = DarshanLog.fromBytes(bytes, 'bz.darshan', { maxInflate: 8 << 20 });
  assert.equal(log.compressionName, 'BZIP2');
  assert.throws(() => log.decode('POSIX'), (e: unknown) => e instanceof LimitError && /POSIX region inflates past the log's decompression budget of 8 MiB/.test(e.message));
  // Many tiny blocks cost their minimum charge each: 5000 one-byte streams pass a budget of 5000 minimum charges, not less.
  const tiny = logWithRegion(1, bzip2Bomb(1, 5000), 4, [], 1);
  const spent = (() => {
    const l = DarshanLog.fromBytes(tiny);
    l.decode('POSIX');
    return l.inflatedBytes;
  })();
  assert.ok(spent >= 5000 * BZIP2_BLOCK_CHARGE);
  assert.throws(() => DarshanLog.fromBytes(tiny, 'x', { maxInflate: 4000 * BZIP2_BLOCK_CHARGE }).decode('POSIX'), LimitError);
});

test('a bzip2 bomb of a few kB stops at the ratio cap (16 MiB of output), not at the 1 GiB budget', { timeout: 60_000 }, () => {
  // 200 streams of 45 MB of zeros (9 GB) in a few kB, read with the default budget
  const bytes = logWithRegion(1, bzip2Bomb(45 << 20, 200), 4, [], 1);
  assert.ok(bytes.length < 64 << 10);
  const log = DarshanLog.fromBytes(bytes, 'bz.darshan');
  assert.throws(() => log.decode('POSIX'), (e: unknown) => e instanceof LimitError && /^the POSIX region inflates to more than 256 times its .* \(and more than 16 MiB\): no real log's data compresses so well/.test(e.message));
  // counted, not timed: what was decoded is the cap, and nothing was charged past it
  assert.ok(log.inflatedBytes <= RATIO_FLOOR + BZIP2_BLOCK_CHARGE, `${log.inflatedBytes} bytes`);
});

test('a zlib bomb in a record region stops at 256 times its size; a heatmap of zero bins may inflate 1,000:1', { timeout: 60_000 }, () => {
  // 40 MiB of zeros in one zlib stream: ~40 kB, about 1,000:1 (zlib's limit)
  const zeros = deflateSync(new Uint8Array(40 << 20), { level: 9 });
  const posix = DarshanLog.fromBytes(logWithRegion(1, zeros, 4), 'bomb.darshan');
  assert.throws(() => posix.decode('POSIX'), (e: unknown) => e instanceof LimitError && /^the POSIX region inflates to more than 256 times its .* \(and more than 16 MiB\)/.test(e.message));
  // counted, not timed: it stopped at the floor of the cap (the region is small), far below the budget
  assert.ok(posix.inflatedBytes <= RATIO_FLOOR + (1 << 20), `${posix.inflatedBytes} bytes`);
  // asked again (every fact of a report asks for its region), it fails again without inflating anything
  const spent = posix.inflatedBytes;
  assert.throws(() => posix.decode('POSIX'), LimitError);
  assert.throws(() => posix.regionBytes(1), LimitError);
  assert.equal(posix.inflatedBytes, spent);
  // the same bytes as a HEATMAP region pass the ratio cap (they may then fail to decode as a heatmap: not a limit)
  const heat = DarshanLog.fromBytes(logWithRegion(HEATMAP_ID, zeros, 1), 'heat.darshan');
  assert.equal(heat.regionBytes(HEATMAP_ID).length, 40 << 20);
});

test('item 2: --max-inflate on parse, report and trace; the default reads a normal log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-bomb-'));
  try {
    // The job region (read by every command) padded with 40 MB of a repeated 997-byte block: one stream of about
    // 260 kB (~160:1, under the ratio cap: the budget is what stops it).
    const path = join(dir, 'bomb.darshan');
    const input = synthesizeLog({ seed: 5, posixFiles: 2, dxtSegments: 10 });
    const block = Buffer.from(Array.from({ length: 997 }, (_, i) => (i * 7919 + 13) & 255));
    const pad = Buffer.alloc(40 << 20);
    for (let o = 0; o < pad.length; o += block.length) block.copy(pad, o);
    let first = true;
    writeFileSync(path, writeLog(input, { compress: (b) => (first ? ((first = false), deflateSync(Buffer.concat([b, pad]))) : deflateSync(b)) }));
    for (const cmd of ['parse', 'report', 'trace']) {
      const r = iolens([cmd, '--max-inflate', '16MiB', path]);
      assert.equal(r.status, 2, r.stderr);
      assert.deepEqual(r.stderr.trim().split('\n'), [`iolens: ${path}: the job region inflates past the log's decompression budget of 16 MiB (raise it with --max-inflate)`]);
      const ok = iolens([cmd, '--max-inflate', '64MiB', path]);
      assert.equal(ok.status, 0, `${cmd}: ${ok.stderr}`);
    }
    const bad = iolens(['parse', '--max-inflate', 'lots', path]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--max-inflate: expected a size/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 3: a corrupt region is a format error naming the file (exit 2), and a batch goes on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-corrupt-'));
  try {
    const good = join(dir, 'good.darshan');
    const bad = join(dir, 'bad.darshan');
    const dxt = join(dir, 'dxt.darshan');
    writeFileSync(good, writeLog(base));
    writeFileSync(bad, logWithRegion(1, Buffer.alloc(64, 0x55), 4));
    const withDxt = synthesizeLog({ seed: 3, posixFiles: 2, dxtSegments: 20 });
    const marker = new Uint8Array(8);
    const dxtBad = writeLog({ ...withDxt, modules: [...withDxt.modules.filter((m) => m.id !== 10), { id: 10, raw: marker, version: 2 }] }, { compress: (b) => (b === marker ? Buffer.alloc(40, 0x55) : deflateSync(b)) });
    writeFileSync(dxt, dxtBad);
    const want = (file: string, region: string) => `iolens: ${file}: corrupt ${region} region (zlib: incorrect header check)`;
    for (const [args, line] of [
      [['parse', bad], want(bad, 'POSIX')],
      [['parse', '--dxt', dxt], want(dxt, 'DXT_POSIX')],
      [['report', bad], want(bad, 'POSIX')],
      [['trace', dxt], want(dxt, 'DXT_POSIX')],
    ] as const) {
      const r = iolens([...args]);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(r.stderr.trim().split('\n'), [line], args.join(' '));
    }
    const batch = iolens(['report', '--csv', good, bad, good]);
    assert.equal(batch.status, 2);
    assert.deepEqual(batch.stderr.trim().split('\n'), [want(bad, 'POSIX')]);
    const rows = batch.stdout.trim().split('\n');
    assert.equal(rows.length, 3, batch.stdout); // the header and both good logs' rows
    assert.equal(rows[1], rows[2]);
    // A corrupt region is a DarshanFormatError for library users too.
    assert.throws(() => DarshanLog.open(bad).decode('POSIX'), DarshanFormatError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 9: parse keeps the log bytes in files and pipes, escapes them with --escape', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-esc-'));
  try {
    const path = join(dir, 'esc.darshan');
    const names = [...base.names].map(([id, n], i) => [id, i === 0 ? `/scratch/\x1b]0;owned\x07\x1b[2J${n}` : n] as const);
    writeFileSync(path, writeLog({ ...base, names, job: { ...base.job, exe: './app \x1b[31mred\x9b' } }));
    const raw = iolens(['parse', path]);
    assert.equal(raw.status, 0, raw.stderr);
    assert.ok(raw.stdout.includes('/scratch/\x1b]0;owned\x07\x1b[2J'), 'pipe output keeps the bytes');
    const esc = iolens(['parse', '--escape', path]);
    assert.equal(esc.status, 0);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(esc.stdout, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    assert.ok(esc.stdout.includes('/scratch/\\x1b]0;owned\\x07\\x1b[2J'));
    assert.ok(esc.stdout.includes('# exe: ./app \\x1b[31mred\\x9b\n'));
    // Apart from the escapes, the output is the same lines, tabs and all.
    const unescape = (s: string) => s.replace(/\\x([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    assert.equal(unescape(esc.stdout), raw.stdout);
    const json = iolens(['parse', '--json', '--escape', path]);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(Buffer.from(json.stdout, 'latin1').toString('utf8'), /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    assert.equal(JSON.parse(Buffer.from(json.stdout, 'latin1').toString('utf8')).job.exe, JSON.parse(Buffer.from(iolens(['parse', '--json', path]).stdout, 'latin1').toString('utf8')).job.exe);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
