const M = (1n << 64n) - 1n;

/** One mixing round of Bob Jenkins' 64-bit lookup8 hash, all arithmetic mod 2^64. */
function mix(a: bigint, b: bigint, c: bigint): [bigint, bigint, bigint] {
  a = (a - b - c) & M; a ^= c >> 43n;
  b = (b - c - a) & M; b ^= (a << 9n) & M;
  c = (c - a - b) & M; c ^= b >> 8n;
  a = (a - b - c) & M; a ^= c >> 38n;
  b = (b - c - a) & M; b ^= (a << 23n) & M;
  c = (c - a - b) & M; c ^= b >> 5n;
  a = (a - b - c) & M; a ^= c >> 35n;
  b = (b - c - a) & M; b ^= (a << 49n) & M;
  c = (c - a - b) & M; c ^= b >> 11n;
  a = (a - b - c) & M; a ^= c >> 12n;
  b = (b - c - a) & M; b ^= (a << 18n) & M;
  c = (c - a - b) & M; c ^= b >> 22n;
  return [a, b, c];
}

/**
 * The record id Darshan gives a file name: lookup8 (level 0) over the name's bytes. Writers need it so that the
 * ids they store agree with what the Darshan runtime would have stored.
 */
export function darshanRecordId(name: string | Uint8Array): bigint {
  const k = typeof name === 'string' ? Buffer.from(name, 'latin1') : Buffer.from(name.buffer, name.byteOffset, name.byteLength);
  let a = 0n;
  let b = 0n;
  let c = 0x9e3779b97f4a7c13n;
  let off = 0;
  let len = k.length;
  while (len >= 24) {
    a = (a + k.readBigUInt64LE(off)) & M;
    b = (b + k.readBigUInt64LE(off + 8)) & M;
    c = (c + k.readBigUInt64LE(off + 16)) & M;
    [a, b, c] = mix(a, b, c);
    off += 24;
    len -= 24;
  }
  c = (c + BigInt(k.length)) & M;
  for (let i = len - 1; i >= 0; i--) {
    const byte = BigInt(k[off + i]);
    if (i >= 16) c = (c + (byte << BigInt(8 * (i - 15)))) & M;
    else if (i >= 8) b = (b + (byte << BigInt(8 * (i - 8)))) & M;
    else a = (a + (byte << BigInt(8 * i))) & M;
  }
  [a, b, c] = mix(a, b, c);
  return c;
}
