import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BusyError, NoSpaceError } from '../contract/index.js';
import { ensureSpace } from '../store/db.js';

/** One upload's body, written to disk as it arrived. */
export interface Upload {
  readonly file: string;
  readonly size: number;
}

/** Past the upload limit (fastify's own code for a body that is too large, so that one handler answers 413). */
export class UploadTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/**
 * Where upload bodies wait for their diagnosis: a private folder (mode 0700, made at start, removed at close) in the
 * temporary directory. A body goes to disk as it arrives, never whole into the service's memory; only the decoding
 * thread that works on it reads it. Each file is removed once its request is answered, however it ends.
 */
export class UploadSpool {
  private next = 0;
  private constructor(readonly dir: string) {}

  static create(): UploadSpool {
    return new UploadSpool(mkdtempSync(join(tmpdir(), 'iolens-uploads-')));
  }

  /**
   * Writes `body` to a new file of the spool, counting its bytes: past `limit` the transfer stops and the file is
   * removed (UploadTooLarge); when the disk lacks room for `declared` bytes, nothing is written (NoSpaceError).
   * `take(n)` is asked before each piece of `n` bytes is kept (the service's budget of bytes held, counted as they
   * arrive): once it refuses, the rest of the body is read and dropped, and the upload fails with BusyError.
   */
  async receive(body: Readable, limit: number, declared: number, take: (n: number) => boolean = () => true): Promise<Upload> {
    const file = join(this.dir, `upload-${++this.next}`);
    ensureSpace(file, Math.max(0, Math.min(declared, limit)), 'an upload', false);
    let size = 0;
    let refused = false;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit) done(new UploadTooLarge(`upload larger than the limit of ${limit} bytes`));
        else if (refused || !take(chunk.length)) {
          // (read to its end so that the client gets the answer, not a reset; nothing of it is kept)
          refused = true;
          done();
        } else done(null, chunk);
      },
    });
    try {
      await pipeline(body, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      rmSync(file, { force: true });
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') throw new NoSpaceError('no room to hold an upload: the service\'s disk is full');
      throw err;
    }
    if (refused) {
      rmSync(file, { force: true });
      throw new BusyError('the service holds as many bytes of uploads as it may at once: retry shortly');
    }
    return { file, size };
  }

  /** A new private folder of the spool for one request's files (removed with `removeScratch`, or with the spool). */
  scratch(): string {
    return mkdtempSync(join(this.dir, 'task-'));
  }

  removeScratch(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
  }

  remove(u: Upload): void {
    rmSync(u.file, { force: true });
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
