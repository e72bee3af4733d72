/**
 * Progress of an ingest: on a terminal (`bar`) a one-line bar with rate and ETA redrawn a few times a second; in a
 * batch job (`lines`) one plain line every `everySeconds`; silent with `off`.
 */
export type ProgressMode = 'bar' | 'lines' | 'off';

export class Progress {
  private last = 0;
  private readonly start = Date.now();
  constructor(
    private readonly total: number,
    private readonly mode: ProgressMode,
    private readonly out: { write(s: string): unknown } = process.stderr,
    private readonly everySeconds = 10,
  ) {
    // The first plain line comes after one period, not at once.
    if (mode === 'lines') this.last = this.start;
  }

  update(done: number, bytes: number, force = false): void {
    if (this.mode === 'off') return;
    const now = Date.now();
    if (this.mode === 'lines') {
      if (!force && now - this.last < this.everySeconds * 1000) return;
      this.last = now;
      const secs = Math.max(0.001, (now - this.start) / 1000);
      const rate = done / secs;
      const eta = rate > 0 && done < this.total ? formatSecs((this.total - done) / rate) : '--';
      const pct = this.total > 0 ? ((done / this.total) * 100).toFixed(1) : '100.0';
      this.out.write(`iolens: ingest ${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} logs (${pct}%), ${Math.round(rate).toLocaleString('en-US')} logs/s, ${(bytes / 1e6 / secs).toFixed(1)} MB/s, ETA ${eta}\n`);
      return;
    }
    if (!force && now - this.last < 200) return;
    this.last = now;
    const secs = Math.max(0.001, (now - this.start) / 1000);
    const rate = done / secs;
    const mbs = bytes / 1e6 / secs;
    const frac = this.total > 0 ? done / this.total : 1;
    const width = 24;
    const filled = Math.round(frac * width);
    const eta = rate > 0 && done < this.total ? formatSecs((this.total - done) / rate) : '--';
    const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ${(frac * 100).toFixed(1)}%  ${Math.round(rate).toLocaleString('en-US')} logs/s  ${mbs.toFixed(1)} MB/s  ETA ${eta}`;
    this.out.write(`\r${line}\x1b[K`);
  }

  finish(): void {
    if (this.mode === 'bar') this.out.write('\r\x1b[K');
  }
}

export function formatSecs(s: number): string {
  if (!Number.isFinite(s)) return '--';
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
