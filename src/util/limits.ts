import { LimitError } from '../contract/errors.js';

/**
 * Budgets that bound the time and memory one input may cost, whatever it holds. Every reader enforces its own while
 * it reads (a decompressor stops the moment its budget is spent) and reports an overrun as a `LimitError`.
 */

/** Bytes one Darshan log (all its regions together), one Recorder block or one tar.gz archive may inflate to. */
export const DEFAULT_MAX_INFLATE = 2 ** 30;
/** Longest line a line-oriented trace reader accepts (DFTracer). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 2 ** 20;

/** Calls the aggregated events (`dft_cnt`) of one DFTracer file may stand for: each becomes one table event. */
export const DEFAULT_MAX_EXPANDED_CALLS = 2 ** 28;
/** Members (files, folders, links) one tar archive may hold: each extracted one costs an inode and a read. */
export const DEFAULT_MAX_ARCHIVE_ENTRIES = 20_000;

/** Limits a caller may raise (or lower) from the defaults above. */
export interface ReadLimits {
  /** Bytes of decompressed data one input may produce (default `DEFAULT_MAX_INFLATE`). */
  readonly maxInflate?: number;
  /** Bytes in one text line (default `DEFAULT_MAX_LINE_BYTES`). */
  readonly maxLineBytes?: number;
  /** Calls aggregated trace events of one file may expand to (default `DEFAULT_MAX_EXPANDED_CALLS`). */
  readonly maxExpandedCalls?: number;
  /** Members one tar archive may hold (default `DEFAULT_MAX_ARCHIVE_ENTRIES`). */
  readonly maxEntries?: number;
  /** Folder an archive is extracted under (default the system's temporary folder; the web service gives each request its own). */
  readonly scratch?: string;
}

/**
 * Decompressed bytes an input may produce, shared by all its parts (a log's regions, a trace's blocks) and spent
 * while inflating: a decompressor stops as soon as the budget is gone, so a decompression bomb costs at most the
 * budget in time and memory.
 */
export class InflateBudget {
  private spent = 0;
  constructor(
    readonly limit: number = DEFAULT_MAX_INFLATE,
    /** what the budget belongs to, for messages (`log`, `trace`, `archive`) */
    readonly owner = 'log',
  ) {
    if (!(limit > 0)) throw new RangeError(`inflation budget must be positive (got ${limit})`);
  }
  get left(): number {
    return this.first !== null ? 0 : Math.max(0, this.limit - this.spent);
  }
  get used(): number {
    return this.spent;
  }
  /** Spends `n` bytes on `what`; throws the budget's LimitError when that passes the limit. */
  charge(n: number, what: string): void {
    this.spent += n;
    if (this.spent > this.limit) throw this.overrun(what);
  }
  /**
   * The error for `what` going past the budget. The budget is spent from then on: a reader that tries the same
   * input again (each check of a report decodes what it needs) is refused at once instead of inflating it again.
   */
  overrun(what: string): LimitError {
    // (`left` is 0 from now on; `used` stays what was inflated.) Later refusals name what spent it (not the region that happened to be asked for next)
    if (this.first !== null) return new LimitError(this.first);
    this.first = `${what} inflates past the ${this.owner}'s decompression budget of ${sizeText(this.limit)} (raise it with --max-inflate)`;
    return new LimitError(this.first);
  }
  private first: string | null = null;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 };

/**
 * Parses a size: a whole number of bytes, or a number with a binary unit (`512k`, `64MiB`, `2G`, `1.5GiB`; k, M, G,
 * T are powers of 1024, with or without `iB`/`B`). Returns null for anything else.
 */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return null;
  const v = Math.floor(Number(m[1]) * UNITS[m[2].toLowerCase()]);
  return Number.isSafeInteger(v) && v > 0 ? v : null;
}

/** A limit as people write it: `1 GiB`, `64 MiB`, `1500 bytes` (exact: a unit only when it divides evenly). */
export function sizeText(n: number): string {
  for (const [u, f] of [['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (n >= f && n % f === 0) return `${n / f} ${u}`;
  }
  return `${n} bytes`;
}
