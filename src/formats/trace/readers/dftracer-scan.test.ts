import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { SHARED } from '../../../testing/corpus.js';
import { ChunkWriter, TableCollector, TraceDicts, type EventTable } from '../model.js';
import { DfRecord, DfScanner, fillFromObject } from './dftracer-scan.js';
import { readDftracer } from './dftracer.js';
import { resolveSource } from './index.js';

async function table(paths: string[], scanner: boolean): Promise<{ t: EventTable; details: unknown; events: number }> {
  const d = new TraceDicts();
  const col = new TableCollector();
  const r = await readDftracer(paths, new ChunkWriter(d, col.sink, 4096), { scanner });
  return { t: col.table(d), details: r.details, events: r.events };
}

function sameTables(a: EventTable, b: EventTable, what: string): void {
  assert.equal(a.length, b.length, what);
  for (const c of ['proc', 'host', 'app', 'file', 'func', 'layer', 'category', 'offset', 'size', 'start', 'end'] as const) {
    assert.deepEqual(a[c].subarray(0, a.length), b[c].subarray(0, b.length), `${what}: column ${c}`);
  }
  for (const d of ['procs', 'hosts', 'apps', 'files', 'funcs'] as const) assert.deepEqual(a.dicts[d].values, b.dicts[d].values, `${what}: dict ${d}`);
  assert.deepEqual(a.dicts.procHost, b.dicts.procHost);
  assert.deepEqual(a.dicts.procApp, b.dicts.procApp);
}

const DF = join(SHARED, 'traces/dftracer');

test('byte scanner and JSON.parse give identical tables on every DFTracer sample', async () => {
  const cm1 = (resolveSource([join(DF, 'cm1_1_48_20240926')]) as { files: string[] }).files;
  const sets: [string, string[]][] = [
    ['cm1 (gen 2, 48 files)', cm1],
    ['dftracer-test.pfw (gen 1)', [join(DF, 'legacy-string-fields/dftracer-test.pfw')]],
    ['dlio-test-trace.pfw.gz (gen 1)', [join(DF, 'legacy-string-fields/dlio-test-trace.pfw.gz')]],
    ['graph-test_data1.pfw (gen 1)', [join(DF, 'legacy-string-fields/graph-test_data1.pfw')]],
  ];
  const expected = [283945, 1012, 93894, 12];
  for (let i = 0; i < sets.length; i++) {
    const [what, paths] = sets[i];
    const fast = await table(paths, true);
    const slow = await table(paths, false);
    assert.equal(fast.events, expected[i], what);
    sameTables(fast.t, slow.t, what);
    assert.deepEqual(fast.details, slow.details, what);
  }
});

test('gen 3 lines (integer ph, hex hashes, aggregation, counters, nested end event) scan identically', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-dfscan-'));
  try {
    const lines = [
      '{"name":"HH","cat":"dftracer","pid":7,"tid":7,"ph":4,"args":{"name":"node1","value":"aa01"}}',
      '{"name":"FH","cat":"dftracer","pid":7,"tid":7,"ph":4,"args":{"name":"/data/f_001.h5","value":"0f0e"}}',
      '{"name":"FH","cat":"dftracer","pid":7,"tid":7,"ph":4,"args":{"name":"/data/caf\u00e9 \u2603.h5","value":"0f0f"}}',
      '{"id":1,"name":"start","cat":"dftracer","type":1,"pid":7,"tid":7,"ts":1000000,"dur":0,"ph":1,"args":{"hhash":"aa01"}}',
      '{"id":2,"name":"open64","cat":"POSIX","type":3,"pid":7,"tid":7,"ts":1000010,"dur":5,"ph":1,"args":{"hhash":"aa01","fhash":"0f0e","ret":3}}',
      ' { "id" : 3 , "name" : "write" , "cat":"POSIX","type":3,"pid":7,"tid":7,"ts":1000020,"dur":30,"ph":3,"args":{"hhash":"aa01","fhash":"0f0e","fd":3,"dft_cnt":3,"ret_sum":3072,"ret_min":1024,"ret_max":1024}} ,',
      '{"id":4,"name":"fwrite","cat":"STDIO","type":3,"pid":7,"tid":7,"ts":1.00003e6,"dur":2.5,"ph":1,"args":{"hhash":"aa01","fhash":"0f0f","size":8,"ret":4}}',
      '{"id":5,"name":"read","cat":"POSIX","type":3,"pid":7,"tid":7,"ts":1000040,"dur":-0,"ph":1,"args":{"hhash":"aa01","fhash":"0f0e","fd":"3","count":"100","ret":"-1"}}',
      '{"id":6,"name":"pread64","cat":"POSIX","type":3,"pid":7,"tid":7,"ts":1000050,"dur":4,"ph":1,"args":{"hhash":"aa01","fhash":"0f0e","fd":3,"offset":12345678901234567890,"ret":10}}',
      '{"name":"cpu","cat":"sys","pid":7,"tid":7,"ts":1000070,"ph":2,"args":{"cpu":3}}',
      '{"id":7,"name":"end","cat":"dftracer","type":1,"pid":7,"tid":7,"ts":1000090,"dur":0,"ph":1,"args":{"num_events":7,"cfg":{"a":[1,2,{"b":null}]}}}',
      '{"id":8,"name":"lseek","cat":"POSIX","type":3,"pid":7,"tid":7,"ts":1000100,"dur":1,"ph":1,"args":{"hhash":"aa01","fhash":"0f0e","fd":3,"ret":4096,"note":"tab\\there"}}',
      '{"id":9,"name":"write","cat":"POSIX","type":3,"pid":7,"tid":7,"ts":1000110,"dur":1,"ph":1,"args":{"hhash":"aa01","fhash":"0f0e","fd":3,"ret":100}}',
    ];
    const p = join(dir, 'app-7.pfw');
    writeFileSync(p, lines.join('\n') + '\n');
    const fast = await table([p], true);
    const slow = await table([p], false);
    assert.equal(fast.events, 9); // open, 3 aggregated writes, fwrite, read, pread, lseek, write
    sameTables(fast.t, slow.t, 'gen 3');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The reference: the reader's JSON.parse path for one line (null = skipped, 'error' = malformed). */
function reference(line: string): DfRecord | null | 'error' {
  let l = line.trim();
  if (l === '' || l === '[' || l === ']') return null;
  if (l.charCodeAt(l.length - 1) === 44) l = l.slice(0, -1);
  if (l.charCodeAt(0) === 91) l = l.slice(1).trim();
  if (l === '') return null;
  let ev: unknown;
  try {
    ev = JSON.parse(l);
  } catch {
    return 'error';
  }
  if (ev === null || typeof ev !== 'object' || Array.isArray(ev)) return 'error';
  const r = new DfRecord();
  fillFromObject(ev as Record<string, unknown>, r);
  return r;
}

/** A record's fields, as a plain object (the scanner's own record changes with the next line). */
function fields(r: DfRecord): Omit<DfRecord, 'reset' | 'resetArgs'> {
  return { ...r };
}

/** The reader's handling of `b[s, e)`: ASCII blanks trimmed; 'blank' when nothing is left, else the record or null. */
function readerScan(sc: DfScanner, b: Buffer, s: number, e: number): DfRecord | null | 'blank' {
  while (s < e && (b[s] === 32 || b[s] === 9 || b[s] === 13)) s++;
  while (e > s && (b[e - 1] === 32 || b[e - 1] === 9 || b[e - 1] === 13)) e--;
  if (s === e) return 'blank';
  return b[s] === 123 ? sc.scan(b, s, e) : null;
}

function viaScanner(sc: DfScanner, line: string): DfRecord | undefined {
  const b = Buffer.from(line, 'utf8');
  const r = readerScan(sc, b, 0, b.length);
  return r === null || r === 'blank' ? undefined : r;
}

const KEYS = ['id', 'name', 'cat', 'pid', 'tid', 'ts', 'dur', 'ph', 'type', 'args', 'hhash', 'fhash', 'hostname', 'fname', 'fd', 'ret', 'ret_sum', 'count', 'count_sum', 'size', 'offset', 'dft_cnt', 'value', 'exec_hash', 'cmd_hash', 'level', 'nam', 'namee', 'ñame'];

test('fuzzed lines: whenever the scanner accepts a line, it yields exactly what JSON.parse yields', () => {
  const sc = new DfScanner();
  const num = fc.oneof(
    { arbitrary: fc.integer({ min: -1000, max: 1000 }).map(String), weight: 6 },
    { arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), weight: 3 },
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), weight: 2 },
    { arbitrary: fc.constantFrom('0', '-0', '1e3', '1E-2', '0.5', '9007199254740991', '9007199254740992', '9007199254740993', '1727387307981693', '01', '1.', '-', '.5', '1e', '+1', '0x10'), weight: 2 },
  );
  const str = fc.oneof(
    { arbitrary: fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => JSON.stringify(s)), weight: 2 },
    { arbitrary: fc.constantFrom('"X"', '"M"', '"C"', '"X "', '"FH"', '"dftracer"', '"POSIX"', '"a\\"b"', '"tab\tin"', '"\\u0058"', '""', '" 5 "', '"12"', '"1e400"', '"abc'), weight: 4 },
  );
  const scalar = fc.oneof({ arbitrary: num, weight: 10 }, { arbitrary: str, weight: 10 }, { arbitrary: fc.constantFrom('null', 'true', 'false', '[]', '[1]', '{}'), weight: 1 });
  const ws = fc.oneof({ arbitrary: fc.constant(''), weight: 60 }, { arbitrary: fc.constantFrom(' ', '\t', '  '), weight: 6 }, { arbitrary: fc.constantFrom('\r', '\v', '\u00a0', '\n'), weight: 1 });
  const member = (value: fc.Arbitrary<string>) =>
    fc.tuple(fc.constantFrom(...KEYS), ws, ws, value, ws).map(([k, a, b, v, c]) => `${a}"${k}"${b}:${c}${v}`);
  const argsObj = fc.array(member(scalar), { maxLength: 6 }).map((ms) => `{${ms.join(',')}}`);
  const line = fc
    .tuple(ws, fc.array(member(fc.oneof(scalar, scalar, argsObj)), { maxLength: 9 }), ws, fc.constantFrom('', '', '', '', ',', ',,', ']', ' ,'), fc.constantFrom('{', '{', '{', '{', '{', '[{'))
    .map(([a, ms, b, tail, open]) => `${a}${open}${ms.join(',')}}${b}${tail}`);
  // random damage: drop or duplicate a character
  const damaged = fc.tuple(line, fc.nat(), fc.constantFrom('drop', 'dup', 'none', 'none', 'none', 'none')).map(([l, i, how]) => {
    const k = l.length === 0 ? 0 : i % l.length;
    if (how === 'drop') return l.slice(0, k) + l.slice(k + 1);
    if (how === 'dup') return l.slice(0, k) + l[k] + l.slice(k);
    return l;
  });
  let accepted = 0;
  fc.assert(
    fc.property(damaged, (l) => {
      const got = viaScanner(sc, l);
      if (got === undefined) return;
      accepted++;
      // the reader hands JSON.parse the line decoded from its bytes (lone surrogates become U+FFFD on the way)
      const ref = reference(Buffer.from(l, 'utf8').toString('utf8'));
      assert.notEqual(ref, 'error', `scanner accepted a malformed line: ${JSON.stringify(l)}`);
      assert.deepEqual(fields(got), fields(ref as DfRecord), JSON.stringify(l));
    }),
    { numRuns: 20000, seed: 42 },
  );
  // the property is not vacuous: a good share of the lines take the fast path
  assert.ok(accepted > 2000, `accepted ${accepted}`);
});

/**
 * Runs of lines as a tracer writes them: two kinds of line (events, metadata), each line of a kind repeating the
 * members of the kind's line before or changing some values, and now and then a key, the nesting, the spacing or a
 * byte (damage); the kinds follow each other in any order (runs, alternation). One scanner reads all the runs, so
 * a line is read against a recent line's shape whenever it can be, shapes of earlier runs included.
 */
const runOfLines: fc.Arbitrary<string[]> = (() => {
  const num = fc.oneof({ arbitrary: fc.integer({ min: -1000, max: 100000 }).map(String), weight: 5 }, { arbitrary: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String), weight: 1 }, { arbitrary: fc.constantFrom('0', '-0', '1727387307981693', '9007199254740993', '9007199254740992', '12345678', '123456789', '1.5', '2e3', '00', '-01'), weight: 1 });
  const str = fc.oneof(
    fc.constantFrom('"X"', '"M"', '"write"', '"read"', '"POSIX"', '"/a/b.dat"', '""', '"12"', '"\u00e9t\u00e9"'),
    fc.string({ maxLength: 5 }).map((x) => JSON.stringify(x)),
  );
  // values the scanner leaves to JSON.parse (escapes, literals, containers) or that are not JSON
  const odd = fc.constantFrom('null', 'true', '[]', '{}', '"caf\\u00e9"', '"a\\"b"', '01', '-', '1.', '"abc');
  const value = fc.oneof({ arbitrary: num, weight: 10 }, { arbitrary: str, weight: 10 }, { arbitrary: odd, weight: 1 });
  const key = fc.constantFrom(...KEYS);
  // keys mostly distinct within a level (a repeated field is a step of its own below)
  const members = fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: 8, selector: (m) => m[0] });
  const shape = fc.tuple(members, fc.option(members, { nil: undefined, freq: 4 }), fc.nat());
  type Shape = [[string, string][], [string, string][] | undefined, number];
  const render = ([top, args, split]: Shape, sep: string): string => {
    const m = (ms: [string, string][]) => ms.map(([k, v]) => `"${k}"${sep}:${v}`);
    const at = split % (top.length + 1);
    const parts = [...m(top.slice(0, at)), ...(args === undefined ? [] : [`"args":{${m(args).join(',')}}`]), ...m(top.slice(at))];
    return `{${parts.join(',')}}`;
  };
  // one step: change the value of some members (most steps), a key, the spacing, or damage a byte
  const step = fc.tuple(fc.nat(), fc.nat(), value, key, fc.constantFrom('value', 'value', 'value', 'value', 'same', 'key', 'space', 'drop', 'dup', 'trail'));
  const apply = (sh: Shape, [i, j, v, k, how]: [number, number, string, string, string]): { sh: Shape; sep: string; damage?: (l: string) => string } => {
    const next: Shape = [sh[0].map((x) => [...x] as [string, string]), sh[1]?.map((x) => [...x] as [string, string]), sh[2]];
    const list = next[1] !== undefined && i % 2 === 1 ? next[1] : next[0];
    const at = j % list.length;
    if (how === 'value') list[at][1] = v;
    if (how === 'key') list[at][0] = k;
    if (how === 'space') return { sh: next, sep: ' ' };
    const cut = (l: string) => j % l.length;
    if (how === 'drop') return { sh: next, sep: '', damage: (l) => l.slice(0, cut(l)) + l.slice(cut(l) + 1) };
    if (how === 'dup') return { sh: next, sep: '', damage: (l) => l.slice(0, cut(l)) + l[cut(l)] + l.slice(cut(l)) };
    if (how === 'trail') return { sh: next, sep: '', damage: (l) => l + ',' };
    return { sh: next, sep: '' };
  };
  return fc.tuple(shape, shape, fc.array(fc.tuple(step, fc.boolean()), { minLength: 1, maxLength: 16 })).map(([first, second, steps]) => {
    const kinds = [first as Shape, second as Shape];
    const lines = [render(kinds[0], ''), render(kinds[1], '')];
    for (const [st, other] of steps) {
      const kind = other ? 1 : 0;
      const r = apply(kinds[kind], st);
      const l = render(r.sh, r.sep);
      lines.push(r.damage ? r.damage(l) : l);
      if (!r.damage) kinds[kind] = r.sh;
    }
    return lines;
  });
})();

test('lines read against recent lines: every accepted line of a run yields exactly what JSON.parse yields', () => {
  const sc = new DfScanner();
  let accepted = 0;
  // lines are handed over in the scanner's ring buffers (compared in place, copied by `release` before a buffer is
  // filled again), or in buffers of their own (copied into the module's memory)
  const ring = new RingWriter(sc);
  fc.assert(
    fc.property(runOfLines, fc.boolean(), (lines, inRing) => {
      for (const l of lines) {
        const b = Buffer.from(l, 'utf8');
        if (b.length === 0 || b[0] !== 123) continue;
        const rec = inRing ? ring.scan(b) : sc.scan(b, 0, b.length);
        if (rec === null) continue;
        accepted++;
        const ref = reference(b.toString('utf8'));
        assert.notEqual(ref, 'error', `scanner accepted a malformed line: ${JSON.stringify(l)}`);
        assert.ok(ref !== null && ref !== 'error');
        assert.deepEqual(fields(rec), fields(ref), JSON.stringify(l));
      }
    }),
    { numRuns: 4000, seed: 7 },
  );
  // not vacuous: many lines are accepted, and many of them through a recent line's shape
  assert.ok(accepted > 12000, `accepted ${accepted}`);
  assert.ok(sc.reused > 3000, `read against a recent line ${sc.reused}`);
  assert.ok(ring.released > 3, `ring buffers filled again: ${ring.released}`);
});

test('runs of lines the module takes in one call (`lines`) give what `scan` gives line by line, numbered alike', () => {
  // The reader's way: the lines of a chunk in a ring buffer go to `lines`, which takes lines until one it cannot read
  // against a shape; that line goes to `scan` (as the line reader hands it to the line callback), and `lines` goes on
  // after it. Against a second scanner reading the same lines one by one, each in a buffer of its own. Lines are
  // decorated as files have them: empty and blank lines, a leading blank, CR before the newline, a trailing comma,
  // `[`; and some are longer than the line limit.
  const batched = new DfScanner();
  const single = new DfScanner();
  const run = { at: 0, lines: 0 };
  let ring = 0;
  let taken = 0;
  let stops = 0;
  const decorate = (lines: string[], deco: number[]): string[] =>
    lines.flatMap((l, i) => {
      const d = deco[i % deco.length];
      const before = d % 7 === 0 ? [''] : d % 7 === 1 ? [' \t '] : d % 11 === 5 ? ['['] : d % 13 === 6 ? [' '.repeat(100)] : [];
      const line = d % 5 === 2 ? ` ${l}` : d % 5 === 3 ? `${l}\r` : d % 5 === 4 ? `${l},` : l;
      return [...before, line];
    });
  type Got = [number, ReturnType<typeof fields> | 'parse' | 'too long'];
  const oneLine = (sc: DfScanner, b: Buffer, s: number, e: number, lineNo: number, got: Got[]): void => {
    const r = readerScan(sc, b, s, e);
    if (r !== 'blank') got.push([lineNo, r === null ? 'parse' : fields(r)]);
  };
  fc.assert(
    fc.property(fc.array(runOfLines, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), fc.nat({ max: 17 }), fc.constantFrom(1 << 30, 1 << 30, 150, 60), (runs, deco, off, maxLen) => {
      // each run twice: the second time its lines repeat those of the first (a tracer's long runs of one kind)
      const lines = decorate(runs.flatMap((r) => [...r, ...r]), deco);
      const text = Buffer.from(lines.join('\n') + '\n', 'utf8');
      // the next ring buffer, released first as the line reader does before it fills one again
      ring = (ring + 1) % 3;
      const buf = batched.ringBuffer(ring);
      batched.release(buf);
      text.copy(buf, off);
      const end = off + text.length;
      const got: Got[] = [];
      let pos = off;
      let lineNo = 0;
      while (pos < end) {
        batched.lines(buf, pos, end, lineNo + 1, maxLen, run, (r, n) => {
          taken++;
          got.push([n, fields(r)]);
        });
        lineNo += run.lines;
        pos = run.at;
        if (pos >= end) break;
        stops++;
        const nl = buf.indexOf(10, pos);
        lineNo++;
        if (nl - pos > maxLen) got.push([lineNo, 'too long']);
        else oneLine(batched, buf, pos, nl > pos && buf[nl - 1] === 13 ? nl - 1 : nl, lineNo, got);
        pos = nl + 1;
      }
      assert.equal(lineNo, lines.length);
      const want: Got[] = [];
      lines.forEach((l, i) => {
        const b = Buffer.from(l, 'utf8');
        if (b.length > maxLen) want.push([i + 1, 'too long']);
        else oneLine(single, b, 0, b.length > 0 && b[b.length - 1] === 13 ? b.length - 1 : b.length, i + 1, want);
      });
      assert.deepEqual(got, want, JSON.stringify(lines));
    }),
    { numRuns: 1500, seed: 11 },
  );
  // not vacuous: most lines are taken in runs, and runs stop at lines the module leaves to `scan`
  assert.ok(taken > 5000, `taken ${taken}`);
  assert.ok(stops > 20000, `stops ${stops}`);
  assert.equal(batched.reused, single.reused);
});

/** Writes lines one after another into a scanner's ring buffers (at every alignment), as the line reader does. */
class RingWriter {
  private buf = 0;
  private at = 0;
  released = 0;
  constructor(private readonly sc: DfScanner) {}

  scan(line: Buffer): DfRecord | null {
    // the first 4 KiB of each buffer only, so that buffers come round again often
    if (this.at + line.length + 1 > 4096) {
      this.buf = (this.buf + 1) % 3;
      this.at = 0;
      this.sc.release(this.sc.ringBuffer(this.buf));
      this.released++;
      // what was there before is overwritten (the reader refills the buffer)
      this.sc.ringBuffer(this.buf).fill(0x7b, 0, 4096);
    }
    const b = this.sc.ringBuffer(this.buf);
    line.copy(b, this.at);
    const s = this.at;
    this.at += line.length + 1 + (line.length % 7);
    return this.sc.scan(b, s, s + line.length);
  }
}

/** Scans a line the scanner must accept, checks it against `JSON.parse`, and returns its fields. */
function scanChecked(sc: DfScanner, line: string): ReturnType<typeof fields> {
  const b = Buffer.from(line);
  const r = sc.scan(b, 0, b.length);
  assert.ok(r !== null, line);
  assert.deepEqual(fields(r), fields(reference(line) as DfRecord), line);
  return fields(r);
}

test('events between metadata lines, and open / writes / close cycles, are read against the line of their kind', () => {
  const sc = new DfScanner();
  const scan = (l: string) => scanChecked(sc, l);
  const event = (id: number, fh: number, size: number) => `{"id":${id},"name":"read","cat":"POSIX","pid":7,"ts":${1000 + id},"dur":2,"ph":"X","args":{"fhash":${fh},"fd":3,"size":${size}}}`;
  const meta = (id: number, fh: number) => `{"id":${id},"name":"FH","cat":"dftracer","pid":7,"ph":"M","args":{"name":"/d/f${fh}","value":${fh}}}`;
  const lines = [event(1, 10, 5), meta(2, 11), event(3, 11, 6), meta(4, 12), event(5, 12, 6), event(6, 12, 7), event(7, 12, 7), meta(8, 13), event(9, 13, 8)];
  // three kinds in a cycle, the last two differing only late in `args`
  const call = (id: number, name: string, args: string) => `{"id":${id},"name":"${name}","cat":"POSIX","pid":7,"ts":${2000 + id},"dur":1,"ph":"X","args":{"fhash":5,${args}}}`;
  for (let c = 0; c < 3; c++) {
    const id = 100 + 10 * c;
    lines.push(call(id, 'open64', `"flags":2,"ret":${3 + c}`));
    for (let w = 1; w <= 4; w++) lines.push(call(id + w, 'write', `"fd":${3 + c},"count":${w},"ret":${w}`));
    lines.push(call(id + 5, 'close', `"fd":${3 + c},"ret":0`));
  }
  for (const l of lines) scan(l);
  // every line after the first of each of the five kinds was read against a line of its kind
  assert.equal(sc.reused, lines.length - 5);
  // a line with a repeated field: its last value counts, and it guides no line after it
  const dup = '{"name":"read","ts":1,"args":{"size":1,"size":2}}';
  assert.equal(scan(dup).size, 2);
  const before = sc.reused;
  assert.equal(scan('{"name":"read","ts":1,"args":{"size":3,"size":2}}').size, 2);
  assert.equal(sc.reused, before);
});

test('lines of ever-changing shapes are compared with the shapes only now and then, and regular lines after them fit again', () => {
  const sc = new DfScanner();
  const scan = (l: string) => scanChecked(sc, l);
  // six shapes differing only in their last key, in rotation: none is among the four kept when it comes again
  const keys = ['size', 'offset', 'count', 'ret', 'fd', 'value'];
  const rotating = (i: number) => `{"id":${i},"name":"write","ts":${i},"args":{"fhash":9,"${keys[i % keys.length]}":${i}}}`;
  const n = 800;
  for (let i = 0; i < n; i++) scan(rotating(i));
  assert.equal(sc.reused, 0);
  // every line compared with every kept shape would be ~4 tries a line; after 8 misses in a row, one line in 8 is
  // (at most 5 tries each)
  assert.ok(sc.tries < n, `tries ${sc.tries}`);
  // a regular run afterwards is read against its shape again within a few lines
  for (let i = 0; i < 100; i++) scan(`{"id":${i},"name":"read","ts":${i},"args":{"fhash":9,"size":${i}}}`);
  assert.ok(sc.reused >= 100 - 10, `reused ${sc.reused}`);
});

test('a line longer than 64 KiB is not kept as a shape, nor read against one', () => {
  const sc = new DfScanner();
  const line = (ts: number) => Buffer.from(`{"name":"${'n'.repeat(70_000)}","ts":${ts}}`);
  for (let ts = 0; ts < 3; ts++) {
    const b = line(ts);
    assert.equal(sc.scan(b, 0, b.length)?.ts, ts);
  }
  assert.equal(sc.reused, 0);
  const short = (ts: number) => Buffer.from(`{"name":"n","ts":${ts}}`);
  for (let ts = 0; ts < 3; ts++) sc.scan(short(ts), 0, short(ts).length);
  assert.equal(sc.reused, 2);
});

test('a released ring buffer may be filled again: the shapes whose line was in it keep a copy', () => {
  for (const released of [true, false]) {
    const sc = new DfScanner();
    const line = (ts: number) => `{"name":"read","cat":"POSIX","pid":7,"ts":${ts},"dur":2,"args":{"size":8}}`;
    // a ring buffer holding a line of ts 1000; it becomes the shape's line (read in place)
    const chunk = sc.ringBuffer(1);
    const n = chunk.write(line(1000), 0, 'latin1');
    assert.equal(sc.scan(chunk, 0, n)?.ts, 1000);
    if (released) sc.release(chunk);
    // the buffer is filled with the next part of the file: a line of the same shape and length, ts 2000
    chunk.write(line(2000), 0, 'latin1');
    // a line equal to the chunk's new bytes: read against the shape's line, it must give its own ts
    const next = Buffer.from(line(2000));
    const got = sc.scan(next, 0, next.length)?.ts;
    // without the release the shape's line has changed under it, and the scanner keeps the old value
    assert.equal(got, released ? 2000 : 1000);
  }
});

test('lines are compared byte for byte at every alignment (bytes that read as NaNs, +0 against -0, zeros)', () => {
  const line = (ts: number, pad: number, raw: number[]) =>
    Buffer.concat([Buffer.from(`{"name":"write","cat":"POSIX","pid":1,"ts":${ts},"dur":5,"args":{"fname":"/d/${'x'.repeat(pad)}`), Buffer.from(raw), Buffer.from('","size":8}}')]);
  for (let pad = 0; pad < 8; pad++) {
    // 0xf0 0x7f at every alignment, non-zero bytes after them: eight bytes that read as a NaN (an earlier comparison read
    // lines as doubles; every comparison must still see these bytes as bytes)
    const sc = new DfScanner();
    for (const ts of [1000, 1001, 1001, 1002]) {
      const b = line(ts, pad, [0xf0, 0x7f, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46]);
      const r = sc.scan(b, 0, b.length);
      assert.ok(r !== null, `pad ${pad} ts ${ts}`);
      assert.deepEqual(fields(r), fields(reference(b.toString('utf8')) as DfRecord), `pad ${pad} ts ${ts}`);
    }
    assert.ok(sc.reused >= 3, `read against the shape: ${sc.reused}`);
    // seven zero bytes and 0x80 where the shape's line has eight other bytes: not equal, and not JSON
    const ok = line(1003, pad, [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48]);
    assert.ok(sc.scan(ok, 0, ok.length) !== null);
    const zeros = line(1003, pad, [0, 0, 0, 0, 0, 0, 0, 0x80]);
    assert.equal(sc.scan(zeros, 0, zeros.length), null, `pad ${pad}`);
    assert.equal(reference(zeros.toString('utf8')), 'error');
  }
});
