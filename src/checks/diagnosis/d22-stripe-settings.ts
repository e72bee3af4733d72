import { defineCheck } from '../define-check.js';
import type { DetailInput } from '../types.js';
import { subjectName } from '../families/diagnosis-common.js';

/** `lfs setstripe -S` text of a stripe size (`1M`, `64K`, bytes otherwise). */
function sizeArg(bytes: number): string {
  if (bytes > 0 && bytes % 1048576 === 0) return `${bytes / 1048576}M`;
  if (bytes > 0 && bytes % 1024 === 0) return `${bytes / 1024}K`;
  return String(bytes);
}

/**
 * D22: a large file shared by many ranks striped over too few OSTs (docs/diagnosis.md, "Storage targets"). Each OST
 * serves its stripes alone; a shared file on one OST (stripe count 1) or on far fewer OSTs than it has ranks moving its
 * data queues every rank's requests on those servers. Fires for files of at least `minBytes` shared by more than
 * `ratio` ranks per stripe. The cost is the file's data time on the slowest rank, an upper bound of what the layout
 * costs (the same file striped wider is also limited by the network and the clients): at most WARN. The expected gain
 * (savings, basis `bound`) takes the bandwidth to grow with the stripes up to the recommended count: one stripe per
 * `ratio` ranks, at most the OSTs the log shows exist when it shows more than the file uses; a striped file (more than
 * one stripe) needs the advice to at least double its stripes, and is left alone when it covers every OST the log shows.
 */
export default defineCheck({
  meta: {
    code: 'D22',
    slug: 'stripe-settings',
    title: 'Shared files are striped over enough OSTs',
    failureTitle: 'A large shared file is striped over too few OSTs for its ranks',
    description:
      'A Lustre file lives on as many storage targets (OSTs) as its stripe count. When many ranks write one large file ' +
      'that sits on one OST, or on far fewer OSTs than ranks, their requests queue on those few servers while the ' +
      'others stay idle: the bandwidth of one OST caps the whole job.',
    panel: 'OPERATIONS',
    layer: 'POSIX',
    scope: 'file',
    level: 'WARN',
    problem: 'stripe-settings',
    requires: ['storage.targets', 'io.time'],
    modes: ['default'],
    options: {
      minBytes: { knob: 'stripe_min_bytes', description: 'Bytes a shared file must move.' },
      ratio: { knob: 'stripe_writers_ratio', description: 'Ranks per stripe above which the stripe count is too low.' },
    },
    messages: {
      narrow: '{count} shared file(s) are striped over too few OSTs for their ranks: "{file}" moves {bytes:bytes} from {ranks} ranks through {stripes} OST(s)',
      file: '"{file}": {ranks} ranks, {bytes:bytes} over {stripes} OST(s) in {size:bytes} stripes, {seconds:fixed2} s on the slowest rank; suggested: {command}',
    },
    recommendations: {
      setstripe: { text: 'Give the file more stripes before it is created (a layout cannot change once written): `lfs setstripe -c <count> -S <size>` on its directory, with the count each detail suggests, or the MPI-IO hints striping_factor and striping_unit', advises: 'striping', snippet: 'lustre-striping.sh' },
      align: { text: 'Keep each rank\'s requests whole stripes (the stripe size a multiple of the request, requests aligned to it) so that no two ranks lock the same stripe' },
    },
    compat: {},
  },
  run(ctx) {
    const st = ctx.fact('storage.targets');
    if (st.kind !== 'ost') return;
    const { minBytes, ratio } = ctx.options;
    const f = st.files;
    // OSTs the log shows exist: the ids it names (0-based) and how many distinct ones.
    let available = st.targets.ids.length;
    for (let k = 0; k < st.targets.ids.length; k++) available = Math.max(available, st.targets.ids[k] + 1);
    const details: DetailInput<'file'>[] = [];
    let cost = 0, gain = 0, worst = -1;
    for (let i = 0; i < f.ids.length; i++) {
      const stripes = f.stripeCount[i], ranks = f.ranks[i];
      if (f.rank[i] >= 0 || !(stripes >= 1) || !(f.bytes[i] >= minBytes) || !(ranks > ratio * stripes)) continue;
      // One stripe per `ratio` ranks, at most the OSTs the log shows when it shows more than the file has. A striped
      // file on every OST the log shows may be on all there are: only at least twice its stripes is advice.
      let want = Math.ceil(ranks / ratio);
      if (available > stripes) want = Math.min(want, available);
      else if (stripes > 1) continue;
      if (!(want > stripes) || (stripes > 1 && want < 2 * stripes)) continue;
      const seconds = f.slowest[i];
      cost += seconds;
      gain += seconds * (1 - stripes / want);
      if (worst < 0 || seconds > f.slowest[worst]) worst = i;
      const subject = ctx.file(f.ids[i]);
      const command = `lfs setstripe -c ${want} -S ${sizeArg(f.stripeSize[i])} <dir>`;
      details.push({ messageId: 'file', data: { file: subjectName(subject), ranks, bytes: f.bytes[i], stripes, size: f.stripeSize[i], seconds, command }, subject });
    }
    if (worst < 0) return;
    details.sort((a, b) => (b.data.seconds as number) - (a.data.seconds as number));
    const subject = ctx.file(f.ids[worst]);
    ctx.report({
      cost: { seconds: cost, semantics: 'slowest', basis: 'bound' },
      savings: { kind: 'known', seconds: gain, low: 0, high: gain, basis: 'bound', reference: `bandwidth growing with the stripe count up to one stripe per ${ratio} ranks (an upper bound: the network and the clients limit it too)` },
      messageId: 'narrow',
      data: { count: details.length, file: subjectName(subject), bytes: f.bytes[worst], ranks: f.ranks[worst], stripes: f.stripeCount[worst] },
      evidence: [
        { name: 'stripeCount', value: f.stripeCount[worst], unit: 'count', source: 'LUSTRE_COMP1_STRIPE_COUNT' },
        { name: 'ranks', value: f.ranks[worst], unit: 'ranks', source: 'io.time: ranks of the file' },
        { name: 'slowestSeconds', value: cost, unit: 'seconds', source: 'io.time: data seconds of the files on the slowest rank' },
      ],
      details,
      recommendations: ['setstripe', 'align'],
    });
  },
});
