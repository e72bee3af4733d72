import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * `iolens mcp`'s transport: JSON-RPC messages, one a line, on standard input and output (the MCP stdio transport).
 * Unlike the SDK's own, it never stops on what a client sends: a line past `maxBytes` is dropped as it arrives (never
 * held whole) and answered -32600 with its id when the id can be found at its top level; a line that is not JSON is
 * answered -32700, a batch or a value that is not a JSON-RPC message -32600; the next line is served as usual.
 */

/** Largest message read, bytes (every argument the tools' schemas accept fits in it). */
export const MAX_MESSAGE_BYTES = 32 * 2 ** 20;

type Id = string | number | null;

/** Finds the `id` member of a JSON object read byte by byte, keeping only its top-level members' text (bounded). */
class IdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private member: number[] = [];
  private overflow = false;
  id: Id = null;

  push(chunk: Uint8Array): void {
    for (const b of chunk) {
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === 0x5c) this.escaped = true;
        else if (b === 0x22) this.inString = false;
        if (this.depth === 1) this.record(b);
        continue;
      }
      if (b === 0x22) {
        this.inString = true;
        if (this.depth === 1) this.record(b);
      } else if (b === 0x7b || b === 0x5b) this.depth++;
      else if (b === 0x7d || b === 0x5d) {
        if (this.depth === 1) this.endMember();
        this.depth--;
      } else if (b === 0x2c && this.depth === 1) this.endMember();
      else if (this.depth === 1) this.record(b);
    }
  }

  private record(b: number): void {
    if (this.member.length < 300) this.member.push(b);
    else this.overflow = true;
  }

  private endMember(): void {
    if (!this.overflow) {
      const m = /^\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d{1,16})\s*$/.exec(Buffer.from(this.member).toString('utf8'));
      if (m) this.id = JSON.parse(m[1]) as string | number;
    }
    this.member = [];
    this.overflow = false;
  }
}

const error = (id: Id, code: number, message: string) => ({ jsonrpc: '2.0' as const, id, error: { code, message } });

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** set while a line past the limit is being dropped */
  private dropping: IdScanner | null = null;
  private started = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  private readonly onError = (err: Error): void => this.onerror?.(err);

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  /** Part of the current line: kept while the line fits, else scanned for its id and dropped. */
  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (!this.dropping && this.size + part.length > this.maxBytes) {
      this.dropping = new IdScanner();
      for (const p of this.parts) this.dropping.push(p);
      this.parts = [];
    }
    this.size += part.length;
    if (this.dropping) this.dropping.push(part);
    else this.parts.push(Buffer.from(part));
  }

  private endLine(): void {
    const dropped = this.dropping;
    const line = dropped ? null : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    const size = this.size;
    this.parts = [];
    this.size = 0;
    this.dropping = null;
    if (dropped) {
      void this.send(error(dropped.id, -32600, `Invalid Request: a message of ${size} bytes, more than the ${this.maxBytes} this server reads`));
      return;
    }
    if (line === null || line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      void this.send(error(null, -32700, 'Parse error: a line that is not JSON'));
      return;
    }
    if (Array.isArray(value)) {
      void this.send(error(null, -32600, 'Invalid Request: batches are not supported (one message a line)'));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      void this.send(error(typeof id === 'string' || typeof id === 'number' ? id : null, -32600, 'Invalid Request: not a JSON-RPC 2.0 message'));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  send(message: JSONRPCMessage | ReturnType<typeof error>): Promise<void> {
    return new Promise((done) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) done();
      else this.output.once('drain', done);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.onclose?.();
  }
}
