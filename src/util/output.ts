import { writeSync } from 'node:fs';

/** Thrown when the reader of our output went away (EPIPE); the CLI exits quietly. */
export class OutputClosedError extends Error {
  constructor() {
    super('output closed');
    this.name = 'OutputClosedError';
  }
}

// Made on first use: a start-up snapshot (scripts/snapshot.mjs) is built where SharedArrayBuffer does not exist.
let sleepBuffer: Int32Array | undefined;

/** Writes all of `data` to a file descriptor synchronously, retrying on EAGAIN (non-blocking pipes). */
export function writeAllSync(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait((sleepBuffer ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, 1);
        continue;
      }
      if (code === 'EPIPE') throw new OutputClosedError();
      throw err;
    }
  }
}

/**
 * A buffered line sink over a file descriptor. Text is accumulated as "binary" strings (one char per byte, latin1)
 * or UTF-8 strings depending on `encoding`, and flushed in large chunks, which keeps printing millions of lines cheap.
 */
export class FdSink {
  private parts: string[] = [];
  private size = 0;
  constructor(
    private readonly fd: number,
    private readonly encoding: 'latin1' | 'utf8' = 'utf8',
    private readonly chunkChars = 1 << 20,
    /** Applied to each chunk of text before it is written (e.g. terminal escaping). */
    private readonly transform?: (text: string) => string,
  ) {}

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.chunkChars) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    this.size = 0;
    writeAllSync(this.fd, Buffer.from(this.transform ? this.transform(text) : text, this.encoding));
  }
}
