import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../contract/errors.js';
import { openStore, writerWaiting, type Store } from './db.js';

/** Where a long-running reader (the web service, the MCP server) gets the store from for one piece of work. */
export interface StoreSource {
  /** The store's file (resolved). */
  readonly path: string;
  /** Runs `fn` on the open store; the store may be closed once it settles. */
  use<T>(fn: (store: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface Handle {
  readonly store: Promise<Store>;
  readonly openedAt: number;
  users: number;
  /** No new work joins it: it closes when its last user is done. */
  retired: boolean;
  readonly closed: Promise<void>;
  markClosed(): void;
}

/**
 * The store opened per piece of work, so that a long-running service does not keep other processes out (DuckDB: one
 * process writes a file, or many read it, never both). Work that arrives while the store is open shares the open
 * store; the store is closed as soon as no work uses it. An open store takes no new work once it has been open for
 * `shareMs`, or once another process waits to write (`FILE.writer-waiting`): new work then waits until it closes and
 * opens it again — after the writer's short transaction — so a steady stream of requests never starves a writer.
 * Opens wait for the lock at most `waitMs` (openStore), then the work fails with one line (BusyError: 503).
 *
 * `writable`: opens read-write (the web service with `--write`, the one writer of its own uploads); read-only
 * otherwise. Only one store is open at a time in this process (two writable opens of one file in one process would
 * both get DuckDB's lock).
 */
export class StoreLeases implements StoreSource {
  readonly path: string;
  private cur: Handle | null = null;
  private closing = false;
  /** Opens made, and the longest an open took, lock wait included (ms); the process's lock waits: `lockWaits`. */
  readonly stats = { opens: 0, maxOpenMs: 0 };

  private constructor(
    path: string,
    readonly writable: boolean,
    private readonly opts: { shareMs: number; waitMs?: number },
  ) {
    this.path = resolve(path);
  }

  /** Checks that the store opens (so a wrong --db fails at start), then closes it again. */
  static async open(path: string, writable: boolean, opts: { shareMs?: number; waitMs?: number } = {}): Promise<StoreLeases> {
    if (!writable && !existsSync(resolve(path))) throw new InputError(`no database at ${path} (run iolens ingest first, or pass --db)`);
    const leases = new StoreLeases(path, writable, { shareMs: opts.shareMs ?? 1000, ...(opts.waitMs !== undefined ? { waitMs: opts.waitMs } : {}) });
    await leases.use(async () => undefined);
    return leases;
  }

  async use<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    for (;;) {
      if (this.closing) throw new InputError('the job store is closed');
      const h = this.cur;
      if (h && !h.retired && Date.now() - h.openedAt < this.opts.shareMs && !writerWaiting(this.path)) break;
      if (h) {
        h.retired = true;
        await h.closed;
        continue;
      }
      this.cur = this.openHandle();
      break;
    }
    const h = this.cur!;
    h.users++;
    try {
      return await fn(await h.store);
    } finally {
      h.users--;
      if (h.users === 0) void this.release(h);
    }
  }

  private openHandle(): Handle {
    let markClosed!: () => void;
    const closed = new Promise<void>((r) => (markClosed = r));
    const t0 = Date.now();
    const store = openStore(this.path, this.writable ? { ...this.waitOpt() } : { readOnly: true, ...this.waitOpt() });
    const h: Handle = { store, openedAt: t0, users: 0, retired: false, closed, markClosed };
    store.then(
      () => {
        this.stats.opens++;
        this.stats.maxOpenMs = Math.max(this.stats.maxOpenMs, Date.now() - t0);
      },
      () => undefined,
    );
    return h;
  }

  private waitOpt(): { waitMs?: number } {
    return this.opts.waitMs !== undefined ? { waitMs: this.opts.waitMs } : {};
  }

  /** Closes a handle nobody uses (a failed open is dropped, so the next work tries again). */
  private async release(h: Handle): Promise<void> {
    if (this.cur === h) this.cur = null;
    h.retired = true;
    try {
      (await h.store).close();
    } catch {
      // (the open failed: its users got the error)
    }
    h.markClosed();
  }

  /** Stops taking work; resolves once the open store (if any) is closed. */
  async close(): Promise<void> {
    this.closing = true;
    const h = this.cur;
    if (h) {
      h.retired = true;
      if (h.users === 0) await this.release(h);
      else await h.closed;
    }
  }
}
