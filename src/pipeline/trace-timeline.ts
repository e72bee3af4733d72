import type { TraceTimeline } from '../contract/index.js';
import { Category } from '../formats/trace/model.js';
import { S_BYTES, S_OPS, S_TIME, STRIDE, type CubeData } from '../trace/cube.js';

/** Most windows of a trace timeline; finer views are summed into wider windows (a whole multiple of the view width). */
export const TIMELINE_WINDOWS = 2000;

/**
 * The `charts.timeline` of a trace report: the analysed calls summed per time window of the report's granularity
 * (coarsened to at most TIMELINE_WINDOWS windows), from the cube every view is built from. Windows are those of the
 * `time` view: aligned on whole multiples of their width, starts in seconds since the start of the first window. The
 * cube's windows are counted from its first event, which need not be its earliest (a DXT log lists one file-rank
 * record after another): cells before it are placed like any other, not dropped.
 */
export function traceTimeline(cube: CubeData, granularity: number): TraceTimeline {
  const nc = cube.cellWin.length;
  // the width in cube windows (the report's granularity is a whole multiple of the cube's base), widened k times
  // when the trace would need more than TIMELINE_WINDOWS windows
  const view = granularity > 0 ? granularity : cube.base;
  const unit = Math.max(1, Math.round(view / cube.base));
  let lo = Infinity;
  let hi = -Infinity;
  for (let c = 0; c < nc; c++) {
    const w = cube.originWin + cube.cellWin[c];
    if (w < lo) lo = w;
    if (w > hi) hi = w;
  }
  if (nc === 0) lo = hi = 0;
  const count = (per: number) => Math.floor(hi / per) - Math.floor(lo / per) + 1;
  let k = 1;
  if (count(unit) > TIMELINE_WINDOWS) {
    k = Math.ceil(count(unit) / TIMELINE_WINDOWS);
    // aligned windows may straddle one more than the span needs
    while (count(unit * k) > TIMELINE_WINDOWS) k++;
  }
  const per = unit * k;
  const first = Math.floor(lo / per);
  const n = count(per);
  const width = view * k;
  const t: { [K in Exclude<keyof TraceTimeline, 'windowSeconds' | 'start'>]: number[] } = {
    readBytes: new Array<number>(n).fill(0),
    writeBytes: new Array<number>(n).fill(0),
    readTime: new Array<number>(n).fill(0),
    writeTime: new Array<number>(n).fill(0),
    metadataTime: new Array<number>(n).fill(0),
    ops: new Array<number>(n).fill(0),
  };
  for (let c = 0; c < nc; c++) {
    const w = Math.floor((cube.originWin + cube.cellWin[c]) / per) - first;
    const s = c * STRIDE;
    t.readBytes[w] += cube.stats[s + S_BYTES + Category.READ];
    t.writeBytes[w] += cube.stats[s + S_BYTES + Category.WRITE];
    t.readTime[w] += cube.stats[s + S_TIME + Category.READ];
    t.writeTime[w] += cube.stats[s + S_TIME + Category.WRITE];
    t.metadataTime[w] += cube.stats[s + S_TIME + Category.METADATA];
    for (let k = 0; k < 5; k++) t.ops[w] += cube.stats[s + S_OPS + k];
  }
  return { windowSeconds: width, start: Array.from({ length: n }, (_, i) => i * width), ...t };
}
