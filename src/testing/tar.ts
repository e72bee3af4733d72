/** Tar archives built byte by byte for tests (ustar headers, no tar binary). */

/** Builds one 512-byte ustar header (octal fields, checksum filled in). */
export function tarHeader(name: string, size: number, type: string, prefix = ''): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'latin1');
  h.write('00000000000\0', 136, 'latin1');
  h.write(type, 156, 'latin1');
  h.write('ustar\0', 257, 'latin1');
  h.write('00', 263, 'latin1');
  h.write(prefix, 345, 155, 'utf8');
  h.fill(32, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return h;
}

export function tarEntry(name: string, data: Buffer | string, type = '0', prefix = ''): Buffer {
  const d = typeof data === 'string' ? Buffer.from(data) : data;
  const pad = Buffer.alloc((512 - (d.length % 512)) % 512);
  return Buffer.concat([tarHeader(name, d.length, type, prefix), d, pad]);
}


/** A tar archive of `n` empty files `dir/NNNNNN.pfw` (and its end blocks): what a hostile trace upload can be. */
export function tarOfEmptyFiles(n: number, dir = 'trace'): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < n; i++) parts.push(tarHeader(`${dir}/${String(i).padStart(6, '0')}.pfw`, 0, '0'));
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
