import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { writeLog, type LogInput } from '../formats/darshan/writer.js';

/**
 * Writes `input` to `path` as a log whose DXT_POSIX region (module 10, version 2) holds exactly `stored`, the bytes
 * as compressed (several zlib streams, a cut or a damaged checksum), every other region deflated as usual.
 */
export function writeLogWithDxtRegion(input: LogInput, stored: Uint8Array, path: string): void {
  const marker = new Uint8Array(8);
  const bytes = writeLog(
    { ...input, modules: [...input.modules.filter((m) => m.id !== 10), { id: 10, raw: marker, version: 2 }] },
    { compress: (b) => (b === marker ? stored : deflateSync(b)) },
  );
  writeFileSync(path, bytes);
}
