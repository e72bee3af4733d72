import type { Finding } from '../contract/index.js';
import { formatPercent, formatSeconds } from '../text/format.js';

/**
 * The verdict's storage sentence (issue 52): when the costliest raised finding is a slow storage target (D21) that is
 * HIGH and holds at least half of the job's I/O time, the time went to the file system, not the I/O pattern, and the
 * report says so right after the I/O share, naming the target(s), their bandwidth against the median one and the
 * seconds the job waited. `raised` are the HIGH/WARN findings, ranked. Null otherwise.
 */
export function storageVerdict(raised: readonly Finding[]): string | null {
  const first = raised[0];
  if (!first || first.problem !== 'slow-storage-target' || first.level !== 'HIGH' || !first.cost || first.cost.ioShare < 0.5) return null;
  const d = first.data;
  if (typeof d.targets !== 'string' || typeof d.rate !== 'number' || typeof d.median !== 'number') return null;
  const rate = (x: number) => `${x.toFixed(2)} MiB/s`;
  return (
    `The file system, not your I/O pattern: ${d.targets} ran at ${rate(d.rate)} against ${rate(d.median)} on the median OST, ` +
    `and the job waited ${formatSeconds(first.cost.seconds)} (${formatPercent(first.cost.ioShare)} of its I/O time) for it (${first.code}).`
  );
}
