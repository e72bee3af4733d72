/** Canonical lowercase 8-4-4-4-12 text of 16 bytes. */
export function uuidText(b: Uint8Array): string {
  const h = Buffer.from(b.buffer, b.byteOffset, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function isZero(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

/** darshan-util byte-swaps a uuid on big-endian logs as one 128-bit integer: the 16 bytes reversed. */
export function reverseInPlace(b: Uint8Array, off: number, len: number): void {
  b.subarray(off, off + len).reverse();
}
