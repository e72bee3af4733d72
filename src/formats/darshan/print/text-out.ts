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
