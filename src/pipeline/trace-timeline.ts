import type { TraceTimeline } from '../contract/index.js';
import { Category } from '../trace/model.js';
import { S_BYTES, S_OPS, S_TIME, STRIDE, type CubeData } from '../trace/cube.js';

/** Most windows of a trace timeline; finer views are summed into wider windows (a whole multiple of the view width). */
export const TIMELINE_WINDOWS = 2000;

/**
 * The `charts.timeline` of a trace report: the analysed calls summed per time window of the report's granularity
 * (coarsened to at most TIMELINE_WINDOWS windows), from the cube every view is built from. Window starts are
 * seconds since the start of the first window, as in the `time` view.
 */
export function traceTimeline(cube: CubeData, granularity: number): TraceTimeline {
  let last = 0;
  for (let c = 0; c < cube.cellWin.length; c++) last = Math.max(last, cube.cellWin[c] * cube.base);
  let width = granularity > 0 ? granularity : cube.base;
  const span = last + cube.base;
  if (span / width > TIMELINE_WINDOWS) width *= Math.ceil(span / width / TIMELINE_WINDOWS);
  const n = Math.max(1, Math.ceil(span / width));
  const t: { [K in Exclude<keyof TraceTimeline, 'windowSeconds' | 'start'>]: number[] } = {
    readBytes: new Array<number>(n).fill(0),
    writeBytes: new Array<number>(n).fill(0),
    readTime: new Array<number>(n).fill(0),
    writeTime: new Array<number>(n).fill(0),
    metadataTime: new Array<number>(n).fill(0),
    ops: new Array<number>(n).fill(0),
  };
  for (let c = 0; c < cube.cellWin.length; c++) {
    // The small offset keeps a window start that is a multiple of the width in its own window despite rounding.
    const w = Math.min(n - 1, Math.floor((cube.cellWin[c] * cube.base) / width + 1e-9));
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
