import { Cube } from '../../trace/cube.js';
import { serveTasks } from '../../util/tasks.js';
import { ChunkWriter, TraceDicts } from '../../formats/trace/model.js';
import { dictData, type WorkerReply, type WorkerRequest } from './parallel.js';
import { readDftracerFile, type DftracerFileStats } from '../../formats/trace/readers/dftracer.js';
import { readRecorder, type RecorderRankStats } from '../../formats/trace/readers/recorder.js';
import type { ReadResult } from '../../formats/trace/readers/types.js';

/** Worker entry: reads its share of the units into a private cube and posts the snapshot back. */
async function run(req: WorkerRequest): Promise<WorkerReply> {
  const dicts = new TraceDicts();
  const cube = new Cube(req.cube);
  const w = new ChunkWriter(dicts, (chunk) => cube.add(chunk));
  let events = 0;
  let sources = 0;
  const warnings: string[] = [];
  const files: DftracerFileStats[] = [];
  const ranks: RecorderRankStats[] = [];
  let format: ReadResult['format'] = 'dftracer';
  let timeOrigin: number | undefined;
  const byDir = new Map<string, number[]>();
  for (const u of req.units) {
    if (u.kind === 'dftracer') {
      const st = await readDftracerFile(u.file, w, { limits: req.limits ?? {} });
      files.push(st);
      events += st.events;
      sources++;
    } else {
      format = 'recorder';
      const list = byDir.get(u.dir) ?? [];
      list.push(u.rank);
      byDir.set(u.dir, list);
    }
  }
  for (const [dir, rs] of byDir) {
    const r = readRecorder(dir, w, rs, req.limits);
    events += r.events;
    sources += r.sources;
    timeOrigin = r.timeOrigin;
    ranks.push(...((r.details?.ranks as RecorderRankStats[]) ?? []));
  }
  w.flush();
  const snap = cube.snapshot();
  return {
    ok: true,
    cube: snap,
    dict: dictData(dicts),
    read: { format, events, sources, warnings, ...(timeOrigin !== undefined ? { timeOrigin } : {}), details: format === 'recorder' ? { ranks } : { files } },
  };
}

serveTasks<WorkerRequest, WorkerReply>(run, (reply) => {
  const c = reply.cube;
  return [c.pairProc.buffer, c.pairFile.buffer, c.cellPair.buffer, c.cellWin.buffer, c.stats.buffer, c.ledger.proc.buffer, c.ledger.file.buffer, c.ledger.layer.buffer, c.ledger.nested.buffer, c.ledger.stats.buffer, c.ledger.busy.proc.buffer, c.ledger.busy.exponent.buffer, c.ledger.busy.first.buffer, c.ledger.busy.offsets.buffer, c.ledger.busy.slots.buffer] as ArrayBuffer[];
});
