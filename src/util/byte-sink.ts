import { writeAllSync } from './output.js';
import { TerminalByteEscaper } from '../text/escape.js';

/**
 * A fast byte-level text sink: strings are copied into a large reusable buffer as latin1 (one byte per char) and
 * written to a file descriptor when it fills. Printing millions of lines this way avoids building JS strings.
 */
export class ByteSink {
  private buf: Uint8Array;
  private pos = 0;
  private readonly escaper: TerminalByteEscaper | null;

  /** `escape`: write control characters as visible escapes (output meant for a terminal). */
  constructor(
    private readonly fd: number,
    size = 1 << 20,
    escape = false,
  ) {
    this.buf = new Uint8Array(size);
    this.escaper = escape ? new TerminalByteEscaper() : null;
  }

  private room(n: number): void {
    if (this.pos + n > this.buf.length) {
      this.flush();
      if (n > this.buf.length) this.buf = new Uint8Array(n * 2);
    }
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    const buf = this.buf;
    let p = this.pos;
    if (n < 32) for (let i = 0; i < n; i++) buf[p++] = b[i];
    else {
      buf.set(b, p);
      p += n;
    }
    this.pos = p;
  }

  /** Writes a string whose chars are all < 256 (latin1). */
  write(s: string): void {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    let p = this.pos;
    if (n < 64) for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    else p += Buffer.prototype.latin1Write.call(buf, s, p, n);
    this.pos = p;
  }

  /**
   * One `head name value` line fragment in a single call (the record printers' hot path): `head` and `name` are
   * copied, then the safe integer `v` in decimal.
   */
  headNameInt(head: Uint8Array, name: Uint8Array, v: number): void {
    const hn = head.length;
    const nn = name.length;
    if (this.pos + hn + nn + 24 > this.buf.length) this.room(hn + nn + 24);
    const buf = this.buf;
    let p = this.pos;
    buf.set(head, p);
    p += hn;
    for (let i = 0; i < nn; i++) buf[p++] = name[i];
    if (v < 0) {
      buf[p++] = 45;
      v = -v;
    }
    if (v < 10) buf[p++] = 48 + v;
    else {
      let digits = 1;
      for (let t = 10; t <= v && digits < 17; t *= 10) digits++;
      let q = p + digits;
      p = q;
      while (v >= 1) {
        const d = v % 10;
        buf[--q] = 48 + d;
        v = (v - d) / 10;
      }
    }
    this.pos = p;
  }

  /** Like `headNameInt` with a latin1 string value. */
  headNameText(head: Uint8Array, name: Uint8Array, v: string): void {
    const hn = head.length;
    const nn = name.length;
    const vn = v.length;
    if (this.pos + hn + nn + vn > this.buf.length) this.room(hn + nn + vn);
    const buf = this.buf;
    let p = this.pos;
    buf.set(head, p);
    p += hn;
    for (let i = 0; i < nn; i++) buf[p++] = name[i];
    for (let i = 0; i < vn; i++) buf[p++] = v.charCodeAt(i);
    this.pos = p;
  }

  /** Writes what is buffered; `final`: the output ends here (an escaping sink then writes what it held back). */
  flush(final = false): void {
    if (this.pos === 0 && !(final && this.escaper)) return;
    const chunk = this.buf.subarray(0, this.pos);
    writeAllSync(this.fd, this.escaper ? this.escaper.push(chunk, final) : chunk);
    this.pos = 0;
  }
}
