import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { distFile } from '../util/package-root.js';
import { writeInput } from './seeds.js';
import type { FuzzInput, RunOutcome, TargetName } from './targets.js';

/**
 * The fuzz loop: inputs mutated from seeds (fast-check generates the mutations from a seed, so a run is
 * reproducible), each run in a child process under a time and memory budget. A finding is an input that ends in an
 * error outside the library's hierarchy, runs past the time budget, or passes the memory budget (the worker's heap
 * limit, or the runner's resident memory passing `memoryBytes`); it is written out as a reproducer folder.
 */

export interface FuzzBudget {
  /** wall time per input */
  timeMs: number;
  /** JavaScript heap of the worker */
  heapMb: number;
  /** resident memory of the runner process (buffers included) while an input runs */
  memoryBytes: number;
}

export const DEFAULT_BUDGET: FuzzBudget = { timeMs: 20_000, heapMb: 512, memoryBytes: 1536 << 20 };

export interface Finding {
  target: TargetName;
  kind: 'untyped-error' | 'timeout' | 'memory' | 'crash';
  message: string;
  /** where the reproducer was written (null when not written) */
  reproducer: string | null;
}

export interface TargetStats {
  inputs: number;
  ok: number;
  typedErrors: number;
  findings: number;
}

/** One mutation of a byte string; positions are fractions of its length, so they fit any seed. */
type Op =
  | { k: 'flip'; at: number; bit: number }
  | { k: 'byte'; at: number; v: number }
  | { k: 'word'; at: number; v: bigint; little: boolean }
  | { k: 'cut'; at: number }
  | { k: 'delete'; at: number; len: number }
  | { k: 'dup'; at: number; len: number; to: number }
  | { k: 'insert'; at: number; bytes: Uint8Array }
  | { k: 'text'; at: number; s: string };

/** Values that break counts and sizes: zero, -1, powers of two around the 32- and 53-bit edges, the extremes. */
const WORDS = [0n, 1n, -1n, 0x7fn, 0xffn, 0x7fffn, 0x7fffffffn, 0x80000000n, 0xffffffffn, 1n << 32n, 1n << 40n, (1n << 53n) + 1n, (1n << 62n), (1n << 63n) - 1n, -(1n << 63n)];
/** Text that the readers treat specially (rules, JSON, names). */
const TOKENS = ['constructor', '__proto__', 'toString', '(((((', ')))', '{{', '}}', '|', '| __proto__', 'not not ', '1e309', '-1', '"', '\\', '\n', '\u0000', '\u001b[2J', '99999999999999999999', 'NaN', '[', ']', '{', '}', ':', ',', '"dft_cnt":1e12', 'max(', 'a'.repeat(4096)];

/** A position as a fraction of the input's length, uniform (fast-check would favour the ends). */
const POS = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 - 1 })).map((n) => n / 2 ** 30);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant('flip' as const), at: POS, bit: fc.nat(7) }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('byte' as const), at: POS, v: fc.nat(255) }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('word' as const), at: POS, v: fc.oneof(fc.constantFrom(...WORDS), fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })), little: fc.boolean() }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('cut' as const), at: POS }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('delete' as const), at: POS, len: fc.integer({ min: 1, max: 64 }) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('dup' as const), at: POS, len: fc.integer({ min: 1, max: 512 }), to: POS }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('insert' as const), at: POS, bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('text' as const), at: POS, s: fc.constantFrom(...TOKENS) }), weight: 2 },
);

/** A mutation of one seed: which seed, which of its files, and the operations. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.record({ seed: fc.nat(), file: fc.nat(), ops: fc.array(opArb, { minLength: 1, maxLength: 6 }) });
export type Mutation = { seed: number; file: number; ops: Op[] };

/**
 * Where a mutation may land: everywhere, except in a rule file, where positions map onto the expressions and
 * messages (mutating the YAML structure only exercises the YAML parser).
 */
function positions(name: string, b: Uint8Array): ((f: number) => number) | null {
  if (!name.endsWith('.yaml')) return null;
  const text = Buffer.from(b).toString('latin1');
  const spots: number[] = [];
  for (const m of text.matchAll(/(condition: |message: ")([^\n]*)/g)) {
    const start = m.index + m[1].length;
    for (let i = 0; i <= m[2].length; i++) spots.push(start + i);
  }
  return spots.length ? (f) => spots[Math.min(spots.length - 1, Math.floor(f * spots.length))] : null;
}

/** Recomputes the checksum of every ustar header block, so that mutations of a plain tar reach past the headers. */
function fixTarChecksums(b: Uint8Array): void {
  for (let off = 0; off + 512 <= b.length; off += 512) {
    if (Buffer.from(b.subarray(off + 257, off + 262)).toString('latin1') !== 'ustar') continue;
    b.fill(32, off + 148, off + 156);
    let sum = 0;
    for (let i = off; i < off + 512; i++) sum += b[i];
    b.set(Buffer.from(sum.toString(8).padStart(6, '0') + '\0 ', 'latin1'), off + 148);
  }
}

function applyOp(b: Uint8Array, op: Op, spot: ((f: number) => number) | null): Uint8Array {
  const pos = (f: number) => (spot ? Math.min(b.length, spot(f)) : Math.min(b.length === 0 ? 0 : b.length - 1, Math.floor(f * b.length)));
  const at = pos(op.at);
  switch (op.k) {
    case 'flip':
      if (b.length) b[at] ^= 1 << op.bit;
      return b;
    case 'byte':
      if (b.length) b[at] = op.v;
      return b;
    case 'word': {
      const p = at & ~7;
      if (p + 8 <= b.length) new DataView(b.buffer, b.byteOffset, b.byteLength).setBigInt64(p, BigInt.asIntN(64, op.v), op.little);
      return b;
    }
    case 'cut':
      return b.slice(0, at);
    case 'delete':
      return Buffer.concat([b.subarray(0, at), b.subarray(at + op.len)]);
    case 'dup':
      return Buffer.concat([b.subarray(0, pos(op.to)), b.subarray(at, at + op.len), b.subarray(pos(op.to))]);
    case 'insert':
      return Buffer.concat([b.subarray(0, at), op.bytes, b.subarray(at)]);
    case 'text':
      return Buffer.concat([b.subarray(0, at), Buffer.from(op.s, 'utf8'), b.subarray(at)]);
  }
}

/** The input a mutation makes from the seeds. */
export function mutate(seeds: readonly FuzzInput[], m: Mutation): FuzzInput {
  const seed = seeds[m.seed % seeds.length];
  const names = Object.keys(seed);
  const name = names[m.file % names.length];
  let bytes: Uint8Array = new Uint8Array(seed[name]);
  for (const op of m.ops) bytes = applyOp(bytes, op, positions(name, bytes));
  if (name.endsWith('.tar')) fixTarChecksums(bytes);
  return { ...seed, [name]: bytes };
}

/** Resident memory of a process in bytes (Linux /proc), or 0 when unknown. */
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

/**
 * A child process that runs inputs one at a time (a process, not a worker thread: a failed large allocation in a
 * worker can abort the whole process, and the fuzzer must survive its inputs); replaced after a timeout, a crash or
 * a memory overrun.
 */
class Runner {
  private child: ChildProcess | null = null;
  private nextId = 0;
  constructor(private readonly budget: FuzzBudget) {}

  private start(): ChildProcess {
    const c = fork(distFile('fuzz/worker.js'), [], {
      execArgv: [`--max-old-space-size=${this.budget.heapMb}`, `--stack-size=${4 * 1024}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.child = c;
    return c;
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (c && c.exitCode === null) {
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    }
  }

  /** Runs one input; resolves to its outcome or to a budget finding. */
  run(target: TargetName, input: FuzzInput): Promise<RunOutcome | { budget: 'timeout' | 'memory' | 'crash'; message: string }> {
    const c = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      let done = false;
      const finish = (v: RunOutcome | { budget: 'timeout' | 'memory' | 'crash'; message: string }, kill: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(probe);
        c.off('message', onMessage);
        c.off('exit', onExit);
        if (kill) void this.stop().then(() => resolve(v));
        else resolve(v);
      };
      const onMessage = (msg: { id: number; outcome: RunOutcome }) => {
        if (msg.id === id) finish(msg.outcome, false);
      };
      const onExit = (code: number | null, signal: string | null) => {
        this.child = null;
        finish({ budget: code === 134 || signal === 'SIGABRT' ? 'memory' : 'crash', message: `runner exited (${signal ?? `code ${code}`}): heap limit ${this.budget.heapMb} MB or a crash` }, false);
      };
      const timer = setTimeout(() => finish({ budget: 'timeout', message: `ran longer than ${this.budget.timeMs} ms` }, true), this.budget.timeMs);
      const probe = setInterval(() => {
        const rss = rssOf(c.pid);
        if (rss > this.budget.memoryBytes) finish({ budget: 'memory', message: `resident memory reached ${Math.round(rss / 2 ** 20)} MB` }, true);
      }, 25);
      c.on('message', onMessage);
      c.on('exit', onExit);
      c.send({ id, target, input });
    });
  }
}

export interface FuzzOptions {
  seeds: Record<TargetName, FuzzInput[]>;
  targets: readonly TargetName[];
  /** fast-check seed of the run */
  seed: number;
  /** stop after this many inputs per target (count mode) … */
  inputsPerTarget?: number;
  /** … or after this long (time mode, all targets in turn) */
  durationMs?: number;
  budget?: FuzzBudget;
  /** folder for reproducers (none written when null) */
  outDir: string | null;
  log?: (line: string) => void;
}

export interface FuzzResult {
  stats: Record<string, TargetStats>;
  findings: Finding[];
  seconds: number;
}

/** Runs the fuzz loop (see the module comment). */
export async function fuzz(opts: FuzzOptions): Promise<FuzzResult> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  const runner = new Runner(budget);
  const t0 = Date.now();
  const stats: Record<string, TargetStats> = {};
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const targets = opts.targets.filter((t) => opts.seeds[t].length > 0);
  for (const t of targets) stats[t] = { inputs: 0, ok: 0, typedErrors: 0, findings: 0 };
  const batch = 64;
  try {
    for (let round = 0; ; round++) {
      let progressed = false;
      for (const [ti, target] of targets.entries()) {
        const left = opts.inputsPerTarget !== undefined ? opts.inputsPerTarget - stats[target].inputs : batch;
        if (left <= 0) continue;
        if (opts.durationMs !== undefined && Date.now() - t0 > opts.durationMs) return { stats, findings, seconds: (Date.now() - t0) / 1000 };
        const n = Math.min(batch, left);
        const muts = fc.sample(mutationArb, { seed: opts.seed + 7919 * round + 104729 * ti, numRuns: n });
        for (const m of muts) {
          if (opts.durationMs !== undefined && Date.now() - t0 > opts.durationMs) break;
          const input = mutate(opts.seeds[target], m);
          const st = stats[target];
          st.inputs++;
          progressed = true;
          const res = await runner.run(target, input);
          let kind: Finding['kind'] | null = null;
          let message = '';
          if ('budget' in res) {
            kind = res.budget;
            message = res.message;
          } else if (res.ok) st.ok++;
          else if (res.typed) st.typedErrors++;
          else {
            kind = 'untyped-error';
            message = `${res.error}${res.stack ? `\n${res.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
          }
          if (kind === null) continue;
          st.findings++;
          const key = `${target}:${kind}:${message.split('\n')[0].replace(/\d+/g, 'N')}`;
          const hash = createHash('sha256').update(JSON.stringify(m, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).digest('hex').slice(0, 12);
          let reproducer: string | null = null;
          if (opts.outDir !== null && !seen.has(key)) {
            reproducer = join(opts.outDir, `${target}-${kind}-${hash}`);
            mkdirSync(reproducer, { recursive: true });
            writeInput(join(reproducer, 'input'), input);
            writeFileSync(join(reproducer, 'finding.json'), JSON.stringify({ target, kind, message, seed: opts.seed, round }, null, 1) + '\n');
          }
          seen.add(key);
          findings.push({ target, kind, message, reproducer });
          opts.log?.(`finding: ${target} ${kind}: ${message.split('\n')[0]}${reproducer ? ` (${reproducer})` : ''}`);
        }
      }
      if (!progressed) break;
      if (opts.durationMs === undefined && opts.inputsPerTarget === undefined) break;
    }
  } finally {
    await runner.stop();
  }
  return { stats, findings, seconds: (Date.now() - t0) / 1000 };
}
