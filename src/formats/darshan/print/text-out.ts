import { ByteSink } from '../../../util/byte-sink.js';

/** Where printers put text: raw (latin1) strings, one char per byte, so names print byte for byte as stored. */
export interface TextOut {
  write(text: string): void;
}

/** Collects text in memory (tests, or callers that post-process). */
export class StringOut implements TextOut {
  private parts: string[] = [];
  write(text: string): void {
    this.parts.push(text);
  }
  toString(): string {
    return this.parts.join('');
  }
}

/**
 * Runs a byte printer on `out`: straight into it when it is a ByteSink (the CLI), else into a memory sink whose
 * text then goes to `out` (tests, callers that post-process), so that every caller gets the same bytes.
 */
export function printAsBytes(out: TextOut | ByteSink, print: (sink: ByteSink) => void): void {
  const target = bytesTarget(out);
  try {
    print(target.sink);
  } finally {
    target.done();
  }
}

/** `printAsBytes` for a printer that reads as it prints (a large DXT region inflated piece by piece). */
export async function printAsBytesAsync(out: TextOut | ByteSink, print: (sink: ByteSink) => Promise<void>): Promise<void> {
  const target = bytesTarget(out);
  try {
    await print(target.sink);
  } finally {
    target.done();
  }
}

/** The sink a byte printer writes to for `out`, and what to do once it has printed. */
function bytesTarget(out: TextOut | ByteSink): { sink: ByteSink; done(): void } {
  if (out instanceof ByteSink) return { sink: out, done: () => {} };
  const sink = new ByteSink(null);
  return { sink, done: () => out.write(sink.text()) };
}
