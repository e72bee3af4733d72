import type { Advice } from '../contract/index.js';
import type { FactContext } from '../facts/fact-context.js';
import { fileRow } from '../facts/time-model.js';

/**
 * Advice that agrees with the report: a recommendation that asks the job to do what another fact of the same report
 * shows it does already is not given (default mode; Drishti's mode prints Drishti's bullets as they are). Each kind
 * of advice (`RecommendationSpec.advises`) has one precondition here, read from the job's facts, with the sentence
 * that says why it does not hold (docs/report.md, "Advice that agrees with the report"):
 *
 *   collective-writes / collective-reads: at least ALREADY (95 %) of the MPI-IO writes (reads) are collective
 *     (MPIIO_COLL_* against MPIIO_INDEP_*); collective-io: every direction the job used is;
 *   non-blocking-writes / -reads: at least ALREADY of them are non-blocking (MPIIO_NB_*);
 *   open-once: every file the job opened at its outermost layer (H5F / PNETCDF_FILE opens, else POSIX opens) was
 *     opened at most once per rank that used it (the time model's ranks of the file);
 *   align-requests: at most 1 − ALREADY of the POSIX requests are off the file alignment (POSIX_FILE_NOT_ALIGNED);
 *   striping (stripe counts and sizes, `lfs setstripe`): the log's mount table names the file systems of the job's
 *     files and none of them stripes files over targets a user can set (Lustre, BeeGFS, OrangeFS, CephFS).
 */
export const ALREADY = 0.95;

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** The advice the job's facts contradict, each with the sentence that says so. */
export function contradictedAdvice(facts: FactContext): ReadonlyMap<Advice, string> {
  const out = new Map<Advice, string>();
  const safe = <T>(f: () => T): T | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  const t = safe(() => facts.tryGet('mpiio.totals'));
  if (t) {
    const share = (a: number, b: number) => (a + b > 0 ? a / (a + b) : null);
    const w = share(t.collWrites, t.indepWrites);
    const r = share(t.collReads, t.indepReads);
    if (w !== null && w >= ALREADY) out.set('collective-writes', `${pct(w)} of the MPI-IO writes are collective already`);
    if (r !== null && r >= ALREADY) out.set('collective-reads', `${pct(r)} of the MPI-IO reads are collective already`);
    if ((w !== null || r !== null) && (w === null || w >= ALREADY) && (r === null || r >= ALREADY)) {
      out.set('collective-io', `${pct(share(t.collWrites + t.collReads, t.indepWrites + t.indepReads)!)} of the MPI-IO requests are collective already`);
    }
    const nbw = t.collWrites + t.indepWrites > 0 ? t.nbWrites / (t.collWrites + t.indepWrites) : null;
    const nbr = t.collReads + t.indepReads > 0 ? t.nbReads / (t.collReads + t.indepReads) : null;
    if (nbw !== null && nbw >= ALREADY) out.set('non-blocking-writes', `${pct(Math.min(1, nbw))} of the MPI-IO writes are non-blocking already`);
    if (nbr !== null && nbr >= ALREADY) out.set('non-blocking-reads', `${pct(Math.min(1, nbr))} of the MPI-IO reads are non-blocking already`);
  }
  const model = safe(() => facts.tryGet('io.time'));
  const ranksOf = (id: bigint) => {
    const f = model ? fileRow(model, id) : -1;
    return f >= 0 ? Math.max(1, model!.files.ranks[f]) : 1;
  };
  const hl = safe(() => facts.tryGet('hl.opens'));
  const p = safe(() => facts.tryGet('posix.files'));
  const opened = hl && hl.ids.length ? { ids: hl.ids, opens: hl.opens } : p && p.ids.length ? { ids: p.ids, opens: p.opens } : null;
  if (opened) {
    let files = 0, most = 0;
    for (let i = 0; i < opened.ids.length; i++) {
      if (!(opened.opens[i] > 0)) continue;
      files++;
      most = Math.max(most, opened.opens[i] / ranksOf(opened.ids[i]));
    }
    if (files > 0 && most <= 1) out.set('open-once', `each of the ${files} file(s) is opened once per rank already`);
  }
  if (p && p.ids.length) {
    let off = 0, req = 0;
    for (let i = 0; i < p.ids.length; i++) {
      off += Math.max(0, p.notAligned[i]);
      req += Math.max(0, p.reads[i]) + Math.max(0, p.writes[i]);
    }
    if (req > 0 && off / req <= 1 - ALREADY) out.set('align-requests', `${pct(1 - off / req)} of the POSIX requests are aligned already`);
  }
  const fs = safe(() => facts.tryGet('log'))?.fsTypes ?? [];
  const known = fs.filter((f) => f !== 'UNKNOWN' && f !== 'N/A' && f !== '');
  if (known.length > 0 && !known.some((f) => STRIPED.has(f.toLowerCase()))) out.set('striping', `the job's files are on ${known.join(', ')}, which has no per-file striping to set`);
  return out;
}

/** File systems whose files a user stripes over storage targets. */
const STRIPED = new Set(['lustre', 'beegfs', 'pvfs2', 'orangefs', 'ceph', 'cephfs']);
