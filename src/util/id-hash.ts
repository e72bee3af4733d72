/**
 * Home slot of a 64-bit id, given as its two 32-bit halves, in an open-addressing table of `mask + 1` slots (a power
 * of two): the tables that group or look up Darshan record ids without BigInt arithmetic or a bigint `Map`.
 */
export function idSlot(lo: number, hi: number, mask: number): number {
  return (Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> 7) & mask;
}
