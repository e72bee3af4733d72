/** A one-line progress bar with rate and ETA, redrawn at most a few times a second; silent unless enabled. */
export class Progress {
  private last = 0;
  private readonly start = Date.now();
  constructor(
    private readonly total: number,
    private readonly enabled: boolean,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, bytes: number, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
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
    if (this.enabled) this.out.write('\r\x1b[K');
  }
}

export function formatSecs(s: number): string {
  if (!Number.isFinite(s)) return '--';
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
