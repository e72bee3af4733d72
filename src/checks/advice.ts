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

/** File systems whose files a user stripes over storage targets. */
const STRIPED = new Set(['lustre', 'beegfs', 'pvfs2', 'orangefs', 'ceph', 'cephfs']);

/** One precondition: reads facts, marks the advice it shows done already. */
type Precondition = (facts: FactContext, mark: (a: Advice, why: string) => void) => void;

const share = (a: number, b: number) => (a + b > 0 ? a / (a + b) : null);

const PRECONDITIONS: readonly Precondition[] = [
  // Collective and non-blocking MPI-IO.
  (facts, mark) => {
    const t = facts.tryGet('mpiio.totals');
    if (!t) return;
    const w = share(t.collWrites, t.indepWrites);
    const r = share(t.collReads, t.indepReads);
    if (w !== null && w >= ALREADY) mark('collective-writes', `${pct(w)} of the MPI-IO writes are collective already`);
    if (r !== null && r >= ALREADY) mark('collective-reads', `${pct(r)} of the MPI-IO reads are collective already`);
    if ((w !== null || r !== null) && (w === null || w >= ALREADY) && (r === null || r >= ALREADY)) {
      mark('collective-io', `${pct(share(t.collWrites + t.collReads, t.indepWrites + t.indepReads)!)} of the MPI-IO requests are collective already`);
    }
    const nbw = t.collWrites + t.indepWrites > 0 ? t.nbWrites / (t.collWrites + t.indepWrites) : null;
    const nbr = t.collReads + t.indepReads > 0 ? t.nbReads / (t.collReads + t.indepReads) : null;
    if (nbw !== null && nbw >= ALREADY) mark('non-blocking-writes', `${pct(Math.min(1, nbw))} of the MPI-IO writes are non-blocking already`);
    if (nbr !== null && nbr >= ALREADY) mark('non-blocking-reads', `${pct(Math.min(1, nbr))} of the MPI-IO reads are non-blocking already`);
  },
  // One open per file and rank, at the outermost layer that counts opens.
  (facts, mark) => {
    const model = facts.tryGet('io.time');
    const hl = facts.tryGet('hl.opens');
    const p = facts.tryGet('posix.files');
    const opened = hl && hl.ids.length ? { ids: hl.ids, opens: hl.opens } : p && p.ids.length ? { ids: p.ids, opens: p.opens } : null;
    if (!opened) return;
    let files = 0, most = 0;
    for (let i = 0; i < opened.ids.length; i++) {
      if (!(opened.opens[i] > 0)) continue;
      const f = model ? fileRow(model, opened.ids[i]) : -1;
      files++;
      most = Math.max(most, opened.opens[i] / (f >= 0 ? Math.max(1, model!.files.ranks[f]) : 1));
    }
    if (files > 0 && most <= 1) mark('open-once', `each of the ${files} file(s) is opened once per rank already`);
  },
  // Aligned requests.
  (facts, mark) => {
    const p = facts.tryGet('posix.files');
    if (!p || !p.ids.length) return;
    let off = 0, req = 0;
    for (let i = 0; i < p.ids.length; i++) {
      off += Math.max(0, p.notAligned[i]);
      req += Math.max(0, p.reads[i]) + Math.max(0, p.writes[i]);
    }
    if (req > 0 && off / req <= 1 - ALREADY) mark('align-requests', `${pct(1 - off / req)} of the POSIX requests are aligned already`);
  },
  // Striping, where the file systems have it.
  (facts, mark) => {
    const known = (facts.tryGet('log')?.fsTypes ?? []).filter((f) => f !== 'UNKNOWN' && f !== 'N/A' && f !== '');
    if (known.length > 0 && !known.some((f) => STRIPED.has(f.toLowerCase()))) mark('striping', `the job's files are on ${known.join(', ')}, which has no per-file striping to set`);
  },
];

/**
 * The advice the job's facts contradict, each with the sentence that says so. Each precondition runs in a guard of its
 * own: a fact (or a field of one) that an input cannot supply (a trace's derived counters withhold some) leaves its
 * advice as it is.
 */
export function contradictedAdvice(facts: FactContext): ReadonlyMap<Advice, string> {
  const out = new Map<Advice, string>();
  for (const pre of PRECONDITIONS) {
    try {
      pre(facts, (a, why) => out.set(a, why));
    } catch {
      // the facts it needs are not there: nothing contradicted
    }
  }
  return out;
}
