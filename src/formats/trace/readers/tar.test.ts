import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { LimitError } from '../../../contract/errors.js';
import { REPO_ROOT } from '../../../testing/corpus.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { TraceInputError } from '../errors.js';
import { tarEntry as entry, tarHeader as header, tarOfEmptyFiles } from '../../../testing/tar.js';
import { extractTar, extractToTemp, isTarName, parsePax, safeEntryPath, tarNumber } from './tar.js';

function pax(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bytes = Buffer.byteLength(body);
  let len = bytes + 1;
  while (String(len).length + bytes !== len) len = String(len).length + bytes;
  return `${len}${body}`;
}

test('ustar archive: files, dirs, prefix, pax path, GNU long name, empty file; unsafe names skipped; gzip', async () => {
  const big = Buffer.alloc(70000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 255;
  const longName = 'run/' + 'x'.repeat(120) + '.parquet';
  const tar = Buffer.concat([
    entry('run/', '', '5'),
    entry('part.0.parquet', big, '0', 'run'),
    entry('PaxHeaders/long', pax('path', longName), 'x'),
    entry('ignored-short-name', 'pax body'),
    entry('././@LongLink', 'run/gnu-' + 'y'.repeat(110) + '\0', 'L'),
    entry('trunc', 'gnu'),
    entry('run/empty.json', ''),
    entry('../evil.txt', 'no'),
    entry('/abs/ok.txt', 'yes'),
    entry('run/link', '', '2'),
    entry('run/._part.0.parquet', 'apple'),
    Buffer.alloc(1024),
  ]);
  for (const gz of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), 'iolens-tar-'));
    try {
      const p = join(dir, gz ? 'a.tar.gz' : 'a.tar');
      writeFileSync(p, gz ? gzipSync(tar) : tar);
      const out = join(dir, 'out');
      mkdirSync(out);
      const n = await extractTar(p, out);
      assert.equal(n, 6); // dir, part.0, pax-named, gnu-named, empty, abs/ok
      assert.deepEqual(readFileSync(join(out, 'run/part.0.parquet')), big);
      assert.equal(readFileSync(join(out, longName), 'utf8'), 'pax body');
      assert.equal(readFileSync(join(out, 'run/gnu-' + 'y'.repeat(110)), 'utf8'), 'gnu');
      assert.equal(readFileSync(join(out, 'run/empty.json'), 'utf8'), '');
      assert.equal(readFileSync(join(out, 'abs/ok.txt'), 'utf8'), 'yes');
      assert.equal(existsSync(join(dir, 'evil.txt')), false);
      assert.deepEqual(readdirSync(join(out, 'run')).sort(), ['empty.json', 'gnu-' + 'y'.repeat(110), 'part.0.parquet', 'x'.repeat(120) + '.parquet']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('damaged archives are input errors and leave no temp folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-tar-'));
  try {
    const good = Buffer.concat([entry('a/b.txt', 'x'.repeat(2000)), Buffer.alloc(1024)]);
    const cases: [string, Buffer, RegExp][] = [
      ['trunc.tar', good.subarray(0, 1000), /truncated tar archive/],
      ['sum.tar', Buffer.concat([Buffer.from(good.subarray(0, 100)), Buffer.alloc(1, 1), good.subarray(101)]), /bad header checksum/],
      ['empty.tar', Buffer.alloc(0), /empty or not a tar archive/],
      ['gz.tar.gz', gzipSync(good).subarray(0, 40), /corrupt gzip data|truncated tar archive/],
    ];
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('iolens-trace-')).length;
    for (const [name, bytes, re] of cases) {
      const p = join(dir, name);
      writeFileSync(p, bytes);
      await assert.rejects(extractToTemp(p), (e: unknown) => e instanceof TraceInputError && re.test(e.message), name);
    }
    assert.equal(readdirSync(tmpdir()).filter((n) => n.startsWith('iolens-trace-')).length, before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tar helpers: numbers (octal, base-256), pax records, safe names, archive names', () => {
  const h = Buffer.alloc(12);
  h.write('00000001750 ', 0, 'latin1');
  assert.equal(tarNumber(h, 0, 12), 1000);
  const b = Buffer.alloc(12);
  b[0] = 0x80;
  b[8] = 1;
  b[11] = 2; // 2^24 + 2
  assert.equal(tarNumber(b, 0, 12), 16777218);
  assert.ok(Number.isNaN(tarNumber(Buffer.from('0009'), 0, 4)));
  assert.deepEqual([...parsePax(Buffer.from(pax('path', 'a/é b') + pax('mtime', '1.5')))], [['path', 'a/é b'], ['mtime', '1.5']]);
  assert.equal(safeEntryPath('./a//b/'), 'a/b');
  assert.equal(safeEntryPath('/etc/passwd'), 'etc/passwd');
  assert.equal(safeEntryPath('a/../../b'), null);
  assert.equal(safeEntryPath('./'), null);
  assert.equal(safeEntryPath('d/._x'), null);
  assert.deepEqual(['x.tar', 'x.TGZ', 'x.tar.gz', 'x.gz', 'x.pfw.gz', 'tar'].map(isTarName), [true, true, true, false, false, false]);
});

test('item 6: a .tar.gz that inflates past the budget stops there with a LimitError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-tar-'));
  try {
    // 40 MB of zeros in one member: about 40 kB compressed
    const p = join(dir, 'bomb.tar.gz');
    writeFileSync(p, gzipSync(Buffer.concat([entry('run/huge.pfw', Buffer.alloc(40 << 20)), Buffer.alloc(1024)])));
    const out = join(dir, 'out');
    mkdirSync(out);
    await assert.rejects(extractTar(p, out, { maxInflate: 4 << 20 }), (e: unknown) => e instanceof LimitError && /bomb\.tar\.gz inflates past the archive's decompression budget of 4 MiB/.test(e.message));
    // what was written before the stop is at most the budget
    assert.ok(statSync(join(out, 'run', 'huge.pfw')).size <= 4 << 20);
    // through the CLI: one line, exit 2, nothing left in the temp folder
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'iolens.js'), 'trace', '--max-inflate', '4MiB', p], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2);
    assert.deepEqual(r.stderr.trim().split('\n'), [`iolens: ${p} inflates past the archive's decompression budget of 4 MiB (raise it with --max-inflate)`]);
    // a big pax header is refused before it is buffered
    const pax = join(dir, 'pax.tar');
    writeFileSync(pax, Buffer.concat([header('PaxHeaders/x', 2 << 20, 'x'), Buffer.alloc(2 << 20), Buffer.alloc(1024)]));
    await assert.rejects(extractTar(pax, out), (e: unknown) => e instanceof LimitError && /pax header of 2097152 bytes/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 6: a file and a folder of the same name are a trace error naming the entry', async () => {
  for (const [first, second] of [
    [entry('run/a', 'file'), entry('run/a/b.pfw', 'x')],
    [entry('run/a/', '', '5'), entry('run/a', 'file')],
    [entry('run/a', 'file'), entry('run/a/', '', '5')],
  ]) {
    const dir = mkdtempSync(join(tmpdir(), 'iolens-tar-'));
    try {
      const p = join(dir, 'clash.tar');
      writeFileSync(p, Buffer.concat([first, second, Buffer.alloc(1024)]));
      const out = join(dir, 'out');
      mkdirSync(out);
      await assert.rejects(extractTar(p, out), (e: unknown) => e instanceof TraceInputError && /clash\.tar: entry "run\/a(\/b\.pfw)?" clashes with an earlier entry/.test(e.message));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('an archive past its budget of entries stops there: a LimitError, and the temporary folder is gone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-tar-entries-'));
  try {
    const file = join(dir, 'many.tar.gz');
    writeFileSync(file, gzipSync(tarOfEmptyFiles(50)));
    const scratch = join(dir, 'scratch');
    mkdirSync(scratch);
    await assert.rejects(extractToTemp(file, { maxEntries: 49, scratch }), (e: Error) => e instanceof LimitError && /an archive of more than 49 entries/.test(e.message));
    assert.deepEqual(readdirSync(scratch), []);
    const ok = await extractToTemp(file, { maxEntries: 50, scratch });
    assert.equal(readdirSync(ok.dir).length, 50);
    ok.cleanup();
    assert.deepEqual(readdirSync(scratch), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
