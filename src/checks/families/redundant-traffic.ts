import type { CheckContext, DetailInput } from '../types.js';
import type { Direction } from './direction.js';
import { DATA_OPS, modelOf, secondsOf } from './diagnosis-common.js';

/**
 * P09/P10: redundant read/write traffic.
 *
 * `--drishti` reproduces Drishti's test (SPEC §7.2): the largest offset touched in any single file exceeds the bytes
 * moved over all files — which detects sparse or partial access, not redundancy — and prints P10 twice (§7.1).
 * The default mode tests redundancy per file: a file whose bytes moved exceed its extent (highest offset + 1) had
 * some of its data read (written) more than once.
 */
export function runRedundantTraffic(ctx: CheckContext<never, 'drishti' | 'redundant' | 'file', never>, dir: Direction): void {
  const t = ctx.fact('posix.totals');
  if (ctx.mode === 'drishti') {
    const maxOff = dir === 'read' ? t.maxByteReadMax : t.maxByteWrittenMax;
    const bytes = dir === 'read' ? t.bytesRead : t.bytesWritten;
    if (!(maxOff > bytes)) return;
    const evidence = [
      { name: 'maxOffset', value: maxOff, unit: 'bytes' as const, source: dir === 'read' ? 'max POSIX_MAX_BYTE_READ' : 'max POSIX_MAX_BYTE_WRITTEN' },
      { name: dir === 'read' ? 'bytesRead' : 'bytesWritten', value: bytes, unit: 'bytes' as const, source: dir === 'read' ? 'Σ POSIX_BYTES_READ' : 'Σ POSIX_BYTES_WRITTEN' },
    ];
    ctx.report({ messageId: 'drishti', data: {}, evidence });
    // Drishti appends the write insight twice (SPEC §7.1).
    if (dir === 'write') ctx.report({ messageId: 'drishti', data: {}, evidence });
    return;
  }
  const f = ctx.fact('posix.byFile');
  const bytes = dir === 'read' ? f.bytesRead : f.bytesWritten;
  const maxB = dir === 'read' ? f.maxByteRead : f.maxByteWritten;
  const details: DetailInput<'file'>[] = [];
  const model = modelOf(ctx);
  let excess = 0, seconds = 0;
  for (let i = 0; i < f.ids.length; i++) {
    const extent = maxB[i] + 1;
    if (maxB[i] >= 0 && bytes[i] > extent) {
      excess += bytes[i] - extent;
      // The repeated bytes' share of the file's reads (writes) at the layer called.
      seconds += (secondsOf(model, f.ids[i], dir === 'read' ? DATA_OPS.read : DATA_OPS.write) * (bytes[i] - extent)) / bytes[i];
      const subject = ctx.file(f.ids[i]);
      details.push({ messageId: 'file', data: { bytes: bytes[i], extent, file: subject.kind === 'file' ? subject.name : '' }, subject });
    }
  }
  if (!details.length) return;
  details.sort((a, b) => Number(b.data.bytes) - Number(b.data.extent) - (Number(a.data.bytes) - Number(a.data.extent)));
  ctx.report({
    cost: { seconds },
    messageId: 'redundant',
    data: { files: details.length, excess },
    evidence: [{ name: 'excessBytes', value: excess, unit: 'bytes', source: dir === 'read' ? 'POSIX_BYTES_READ − POSIX_MAX_BYTE_READ − 1 per file' : 'POSIX_BYTES_WRITTEN − POSIX_MAX_BYTE_WRITTEN − 1 per file' }],
    details,
  });
}
