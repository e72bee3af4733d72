import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LimitError } from '../../../contract/errors.js';
import { REPO_ROOT } from '../../../testing/corpus.js';
import { useInflateSyncForTesting } from '../../../util/inflate-engine.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../../util/limits.js';
import { ChunkWriter, TableCollector, TraceDicts } from '../model.js';
import { TraceInputError } from '../errors.js';
import { readDftracer } from './dftracer.js';
import { forEachLineBytes, type LineRun } from './lines.js';

const EVENT = '{"id":1,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":1000,"dur":5,"ph":"X","args":{"fname":"/a","ret":4096}}';

/** Event lines of varied length (up to ~3 KB: some span the reader's 1 MiB chunks), `bytes` or a line more in all. */
function variedLines(bytes: number): string[] {
  const parts: string[] = [];
  for (let i = 0, len = 0; len < bytes; i++) {
    parts.push(`${EVENT.replace('"id":1', `"id":${i}`)}${'x'.repeat((i * 7919) % 3000)}\n`);
    len += parts[i].length;
  }
  return parts;
}

async function lines(path: string, maxLineBytes?: number): Promise<number[]> {
  const lens: number[] = [];
  await forEachLineBytes(path, (_b, s, e) => lens.push(e - s), { maxLineBytes });
  return lens;
}

test('item 5: a line longer than the limit is a LimitError, read in bounded memory (plain and gzip)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    assert.equal(DEFAULT_MAX_LINE_BYTES, 64 << 20);
    // 100 MB without a newline, as a .pfw and as a 100 kB .pfw.gz
    const huge = Buffer.alloc(100 << 20, 0x61);
    const plain = join(dir, 'a.pfw');
    const gz = join(dir, 'b.pfw.gz');
    writeFileSync(plain, huge);
    writeFileSync(gz, gzipSync(huge));
    for (const p of [plain, gz]) {
      await assert.rejects(
        readDftracer([p], new ChunkWriter(new TraceDicts(), new TableCollector().sink)),
        (e: unknown) => e instanceof LimitError && e.message === `${p}:1: line longer than 64 MiB (no newline); not a trace file, or raise the line limit`,
      );
    }
    // a limit given by the caller; lines that span many chunks are assembled whole
    const mixed = join(dir, 'c.pfw');
    writeFileSync(mixed, Buffer.concat([Buffer.from(`${EVENT}\n`), Buffer.alloc(3 << 20, 0x62), Buffer.from(`\n${EVENT}\r\n\nlast`)]));
    assert.deepEqual(await lines(mixed), [EVENT.length, 3 << 20, EVENT.length, 4]);
    await assert.rejects(lines(mixed, 1 << 20), (e: unknown) => e instanceof LimitError && /c\.pfw:2: line longer than 1 MiB/.test(e.message));
    assert.deepEqual(await lines(mixed, 3 << 20), [EVENT.length, 3 << 20, EVENT.length, 4]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a blank line past the line limit is the same error whether the module or JavaScript reads the lines', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    // events, then a line of blanks longer than the limit (an event's length and 10 bytes), then more events
    const text = [EVENT, EVENT, ' '.repeat(EVENT.length + 50), EVENT].join('\n') + '\n';
    const limits = { maxLineBytes: EVENT.length + 10 };
    for (const [name, bytes] of [['a.pfw', Buffer.from(text)], ['b.pfw.gz', gzipSync(text)]] as const) {
      const p = join(dir, name);
      writeFileSync(p, bytes);
      for (const scanner of [true, false]) {
        await assert.rejects(
          readDftracer([p], new ChunkWriter(new TraceDicts(), new TableCollector().sink), { scanner, limits }),
          (e: unknown) => e instanceof LimitError && e.message.startsWith(`${p}:3: line longer than`),
          `${name}, scanner ${scanner}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 8: a FIFO given to parse, trace or report is refused with one line instead of blocking', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-fifo-'));
  try {
    const fifo = join(dir, 'log.darshan');
    const pfw = join(dir, 'trace.pfw');
    execFileSync('mkfifo', [fifo, pfw]);
    const rules = join(dir, 'rules.yaml');
    execFileSync('mkfifo', [rules]);
    for (const [args, line] of [
      [['parse', fifo], `iolens: ${fifo}: is a FIFO, not a Darshan log`],
      [['report', fifo], `iolens: ${fifo}: is a FIFO, not a Darshan log`],
      [['trace', fifo], `iolens: ${fifo}: is a FIFO, not a Darshan log`],
      [['trace', pfw], `iolens: ${pfw}: is a FIFO, not a trace file`],
      [['trace', '--rules', rules, pfw], `iolens: ${rules}: is a FIFO, not a rule file`],
    ] as const) {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), ...args], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.error ?? r.stderr}`);
      assert.deepEqual(r.stderr.trim().split('\n'), [line]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 5: a corrupt gzip stream is a trace error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    const p = join(dir, 'x.pfw.gz');
    const z = gzipSync(Buffer.from(`${EVENT}\n`.repeat(100)));
    z[z.length >> 1] ^= 0xff;
    writeFileSync(p, z);
    await assert.rejects(lines(p), (e: unknown) => e instanceof TraceInputError && /corrupt gzip data/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bytes handed to onLine are never changed afterwards (plain and gzip, lines across chunks)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    // 5 MB of lines of varied length (some spanning the 1 MiB chunks), as .pfw and as .pfw.gz
    const parts = variedLines(5 << 20);
    const text = parts.join('');
    const plain = join(dir, 'a.pfw');
    const gz = join(dir, 'b.pfw.gz');
    writeFileSync(plain, text);
    writeFileSync(gz, gzipSync(text));
    for (const p of [plain, gz]) {
      const seen: { b: Buffer; s: number; e: number; copy: Buffer }[] = [];
      await forEachLineBytes(p, (b, s, e) => seen.push({ b, s, e, copy: Buffer.from(b.subarray(s, e)) }));
      assert.equal(seen.length, parts.length);
      assert.ok(new Set(seen.map((x) => x.b.buffer)).size > 4, 'several chunks');
      for (const [i, x] of seen.entries()) assert.ok(x.b.subarray(x.s, x.e).equals(x.copy), `${p}: line ${i + 1} changed after it was handed over`);
      assert.equal(seen.map((x) => x.copy.toString('latin1')).join('\n') + '\n', text);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Every line of a file as text, then the number of lines; or the error. With `runs`, an `onLines` takes runs of
 * 0–6 lines in turn (as the DFTracer scanner takes the lines it can read against its shapes), stopping also at a line
 * longer than `maxLineBytes`.
 */
async function everyLine(path: string, gunzipAside = false, ring = false, runs = false, maxLineBytes = 1 << 22): Promise<unknown> {
  const out: string[] = [];
  // the caller's own buffers to fill in turn (as the DFTracer scanner gives its module's memory)
  const own = [0, 1, 2].map(() => Buffer.alloc(1 << 20));
  let turn = 0;
  let inOwn = 0;
  const onLines = (b: Buffer, s: number, e: number, lineNo: number, run: LineRun): void => {
    assert.equal(b[e - 1], 10, 'a run ends with a newline');
    let p = s;
    let took = 0;
    for (const want = turn++ % 7; took < want && p < e; took++) {
      const nl = b.indexOf(10, p);
      if (nl - p > maxLineBytes) break;
      const end = nl > p && b[nl - 1] === 13 ? nl - 1 : nl;
      if (end > p) {
        if (own.some((o) => o === b)) inOwn++;
        out.push(`${lineNo + took}:${b.toString('latin1', p, end)}`);
      }
      p = nl + 1;
    }
    run.at = p;
    run.lines = took;
  };
  try {
    const n = await forEachLineBytes(path, (b, s, e, lineNo) => {
      if (own.some((o) => o === b)) inOwn++;
      out.push(`${lineNo}:${b.toString('latin1', s, e)}`);
    }, { maxLineBytes, beforeReuse: () => {}, gunzipAside, ...(ring ? { ringBuffer: (i: number) => own[i] } : {}), ...(runs ? { onLines } : {}) });
    // only lines across chunks (assembled) lie elsewhere
    if (ring && out.length > 100 && inOwn < out.length * 0.9) return ['lines not in the caller\'s buffers', inOwn, out.length];
    return [out, n];
  } catch (err) {
    return [(err as Error).constructor.name, (err as Error).message.replace(path, 'FILE')];
  }
}

test('gzip files read through the zlib engine give the lines and errors of Node\'s Gunzip stream (aside, or where the engine is missing)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    const text = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${EVENT.replace('"id":1', `"id":${from + i}`)}${'y'.repeat(((from + i) * 613) % 700)}\n`).join('');
    const a = gzipSync(text(0, 9000)), b = gzipSync(text(9000, 3000), { level: 1 });
    // a stored (uncompressed) member of exactly 1 MiB: the next member starts where an input chunk ends
    let n = (1 << 20) - 200;
    while (gzipSync(Buffer.alloc(n, 120), { level: 0 }).length < 1 << 20) n++;
    const exact = gzipSync(Buffer.concat([Buffer.from(text(20000, 1)), Buffer.alloc(n - EVENT.length - 40, 120)]).subarray(0, n), { level: 0 });
    const cut = Buffer.from(a.subarray(0, a.length - 9));
    const damaged = Buffer.from(a);
    damaged[a.length >> 1] ^= 0x55;
    const cases: [string, Buffer][] = [
      ['one member', a],
      ['members back to back', Buffer.concat([a, b, a])],
      ['a member ending where an input chunk ends', Buffer.concat([exact, b])],
      ['zero padding after the last member', Buffer.concat([a, Buffer.alloc(5000)])],
      ['other bytes after the last member', Buffer.concat([a, Buffer.from('trailing bytes')])],
      ['a member cut short', cut],
      ['a damaged member', damaged],
      ['the magic bytes alone', Buffer.from([0x1f, 0x8b])],
    ];
    for (const [name, bytes] of cases) {
      const p = join(dir, 'x.pfw.gz');
      writeFileSync(p, bytes);
      const engine = await everyLine(p);
      assert.deepEqual(await everyLine(p, true), engine, `${name} (gunzip aside)`);
      assert.deepEqual(await everyLine(p, false, true), engine, `${name} (into the caller's buffers)`);
      assert.deepEqual(await everyLine(p, true, true), engine, `${name} (gunzip aside, into the caller's buffers)`);
      assert.deepEqual(await everyLine(p, false, true, true), engine, `${name} (runs of lines taken by onLines)`);
      useInflateSyncForTesting(true);
      let stream: unknown;
      try {
        stream = await everyLine(p);
      } finally {
        useInflateSyncForTesting(false);
      }
      assert.deepEqual(engine, stream, name);
    }
    assert.equal(((await everyLine(join(dir, 'x.pfw.gz'))) as string[])[0], 'TraceInputError');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('onLines takes runs of lines: the same lines, numbers and errors as line by line (plain, gzip, CR, empty and long lines)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    const parts = variedLines(3 << 20).map((l, i) => (i % 5 === 1 ? '\n' : i % 5 === 2 ? ' \r\n' : '') + (i % 3 === 0 ? l.replace('\n', '\r\n') : l));
    const text = parts.join('') + 'last line without a newline';
    writeFileSync(join(dir, 'a.pfw'), text);
    writeFileSync(join(dir, 'b.pfw.gz'), gzipSync(text));
    for (const p of [join(dir, 'a.pfw'), join(dir, 'b.pfw.gz')]) {
      for (const max of [1 << 22, 2500]) {
        const single = await everyLine(p, false, true, false, max);
        assert.deepEqual(await everyLine(p, false, true, true, max), single, `${p}, limit ${max}`);
        if (max === 2500) assert.equal((single as string[])[0], 'LimitError');
        // not vacuous: every line came (the blank ones are ' ' once CR is gone; empty ones are skipped)
        else assert.equal((single as [string[], number])[0].length, parts.length + parts.filter((_, i) => i % 5 === 2).length + 1);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with beforeReuse, a buffer is filled again only after it was released, and every line is whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    const text = variedLines(6 << 20).join('');
    writeFileSync(join(dir, 'a.pfw'), text);
    writeFileSync(join(dir, 'b.pfw.gz'), gzipSync(text));
    for (const p of [join(dir, 'a.pfw'), join(dir, 'b.pfw.gz')]) {
      // lines handed over and not yet released, with a copy of their bytes
      let held: { b: Buffer; s: number; e: number; copy: Buffer }[] = [];
      const buffers = new Set<Buffer>();
      const got: string[] = [];
      let released = 0;
      await forEachLineBytes(
        p,
        (b, s, e) => {
          buffers.add(b);
          held.push({ b, s, e, copy: Buffer.from(b.subarray(s, e)) });
          got.push(b.toString('latin1', s, e));
        },
        {
          beforeReuse: (buf) => {
            released++;
            for (const x of held) assert.ok(x.b.subarray(x.s, x.e).equals(x.copy), `${p}: a line changed before its buffer was released`);
            held = held.filter((x) => x.b !== buf);
          },
        },
      );
      for (const x of held) assert.ok(x.b.subarray(x.s, x.e).equals(x.copy), `${p}: a line changed`);
      assert.ok(released >= 3, `${p}: buffers were reused (${released} releases)`);
      // a few chunk buffers, and one per line assembled across chunks
      assert.ok([...buffers].filter((b) => b.length === 1 << 20).length <= 3, `${p}: at most three chunk buffers`);
      assert.equal(got.join('\n') + '\n', text);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a gzip trace file inflates within the decompression budget: a bomb of empty lines stops there (every gunzip path, and the CLI)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-lines-'));
  try {
    // 48 MiB of newlines in ~50 KB: each empty line costs time, so the bytes inflated must be bounded
    const bomb = join(dir, 'bomb.pfw.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(48 << 20, 10), { level: 9 }));
    const limit = 16 << 20;
    const message = `${bomb} inflates past the trace's decompression budget of 16 MiB (raise it with --max-inflate)`;
    for (const gunzipAside of [false, true]) {
      await assert.rejects(forEachLineBytes(bomb, () => {}, { maxInflate: limit, gunzipAside }), (e: unknown) => e instanceof LimitError && e.message === message);
      // within the budget, the same file reads
      assert.equal(await forEachLineBytes(bomb, () => {}, { maxInflate: 48 << 20, gunzipAside }), 48 << 20);
    }
    useInflateSyncForTesting(true);
    try {
      await assert.rejects(forEachLineBytes(bomb, () => {}, { maxInflate: limit }), (e: unknown) => e instanceof LimitError && e.message === message);
    } finally {
      useInflateSyncForTesting(false);
    }
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', '--max-inflate', '16MiB', bomb], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.deepEqual(r.stderr.trim().split('\n'), [`iolens: ${message}`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
