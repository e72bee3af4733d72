import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_BUDGET, fuzz } from './harness.js';
import { loadSeeds, readInput } from './seeds.js';
import { runInput, TARGET_NAMES, type TargetName } from './targets.js';

/**
 * `npm run fuzz -- [--minutes N | --inputs N] [--seed S] [--targets a,b] [--out DIR]`: fuzzes the readers for as long
 * as asked (default 1 minute); `--replay DIR` runs one reproducer again. Exits 1 when there are findings.
 */
async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const replay = arg('--replay');
  if (replay) {
    const info = JSON.parse(readFileSync(join(replay, 'finding.json'), 'utf8')) as { target: TargetName };
    const outcome = await runInput(info.target, readInput(join(replay, 'input')));
    process.stdout.write(`${JSON.stringify(outcome, null, 1)}\n`);
    return outcome.ok || outcome.typed ? 0 : 1;
  }
  const minutes = Number(arg('--minutes') ?? (arg('--inputs') ? NaN : 1));
  const inputs = arg('--inputs') !== undefined ? Number(arg('--inputs')) : undefined;
  const seed = Number(arg('--seed') ?? Date.now() % 2 ** 31);
  const targets = (arg('--targets')?.split(',') ?? [...TARGET_NAMES]) as TargetName[];
  for (const t of targets) if (!TARGET_NAMES.includes(t)) throw new Error(`unknown target ${t} (known: ${TARGET_NAMES.join(', ')})`);
  const outDir = arg('--out') ?? 'fuzz-findings';
  const seeds = await loadSeeds();
  process.stderr.write(`fuzz: seed ${seed}, ${Number.isFinite(minutes) ? `${minutes} min` : `${inputs} inputs per target`}, budget ${DEFAULT_BUDGET.timeMs / 1000} s / ${DEFAULT_BUDGET.heapMb} MB heap / ${DEFAULT_BUDGET.memoryBytes >> 20} MB RSS per input; seeds: ${targets.map((t) => `${t} ${seeds[t].length}`).join(', ')}\n`);
  const res = await fuzz({
    seeds,
    targets,
    seed,
    ...(Number.isFinite(minutes) ? { durationMs: minutes * 60_000 } : { inputsPerTarget: inputs }),
    outDir,
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(`fuzz: ${res.seconds.toFixed(0)} s, seed ${seed}\n`);
  process.stdout.write(`target     inputs      ok  typed-errors  findings\n`);
  let total = 0;
  for (const [t, s] of Object.entries(res.stats)) {
    total += s.inputs;
    process.stdout.write(`${t.padEnd(9)} ${String(s.inputs).padStart(7)} ${String(s.ok).padStart(7)} ${String(s.typedErrors).padStart(13)} ${String(s.findings).padStart(9)}\n`);
  }
  process.stdout.write(`total     ${String(total).padStart(7)}  findings: ${res.findings.length}${res.findings.length ? ` (reproducers in ${outDir})` : ''}\n`);
  return res.findings.length ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fuzz: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
