import { dirs, files, type RunPlan, type SbatchSettings } from './plan.js';

/** A word for bash, single-quoted unless it is plainly safe. */
export function shQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function sbatchLines(s: SbatchSettings, jobName: string, output: string, cwd: string): string[] {
  const lines = [`#SBATCH --job-name=${jobName}`, `#SBATCH --output=${output}`, '#SBATCH --open-mode=append', `#SBATCH --chdir=${cwd}`, `#SBATCH --cpus-per-task=${s.cpus}`];
  if (s.partition) lines.push(`#SBATCH --partition=${s.partition}`);
  if (s.time) lines.push(`#SBATCH --time=${s.time}`);
  if (s.account) lines.push(`#SBATCH --account=${s.account}`);
  for (const x of s.extra) lines.push(`#SBATCH ${x}`);
  return lines;
}

/** The command line of one task, in bash, with "$ID" standing for its array index. */
function taskCommand(plan: RunPlan): string[] {
  const iolens = `${shQuote(plan.node)} ${shQuote(plan.iolens)}`;
  const fwd = plan.forward.map(shQuote).join(' ');
  const inputs = plan.inputs.map(shQuote).join(' ');
  const parts = shQuote(dirs.parts(plan.workdir));
  const n = plan.tasks;
  switch (plan.kind) {
    case 'ingest':
      // Ingest commits in batches and skips what a part already holds: a rerun of a task resumes it.
      return [`${iolens} ingest ${fwd} --shard "$ID/${n}" --db ${parts}/part-"$ID".duckdb --jobs "\${SLURM_CPUS_PER_TASK:-1}" -- ${inputs}`, 'rc=$?'];
    case 'trace':
      // The partial cube is written under a temporary name and renamed when complete.
      return [`${iolens} trace ${fwd} --shard "$ID/${n}" --cube-out ${parts}/part-"$ID".cube -- ${inputs}`, 'rc=$?'];
    case 'report': {
      // Status 2 means some logs of the list could not be read (their error lines are in .err): the part is
      // complete. The output appears under its final name only then.
      const p = `${parts}/part-"$ID"`;
      return [
        `${iolens} report ${fwd} --from ${shQuote(dirs.lists(plan.workdir))}/list-"$ID".txt > ${p}.out.tmp 2> ${p}.err.tmp`,
        'rc=$?',
        `cat ${p}.err.tmp >&2`,
        `if [ $rc -eq 0 ] || [ $rc -eq 2 ] || [ $rc -eq 3 ]; then mv -f ${p}.err.tmp ${p}.err && mv -f ${p}.out.tmp ${p}.out; fi`,
      ];
    }
  }
}

const HEADER = '# Written by iolens slurm (docs/scale-out.md). Assumes a shared file system: the inputs, this folder and the\n# IOLens install (Node.js and bin/iolens.js below) have the same paths on every node.';

/** The array job: task $SLURM_ARRAY_TASK_ID runs shard $ID of N and records its start and exit status. */
export function taskScript(plan: RunPlan): string {
  const w = plan.workdir;
  const st = shQuote(dirs.status(w));
  return [
    '#!/bin/bash',
    ...sbatchLines(plan.sbatch, `iolens-${plan.kind}`, `${dirs.logs(w)}/task-%a.log`, plan.cwd),
    HEADER,
    `# One ${plan.kind} shard per array task, ${plan.tasks} in all: submit with bash ${shQuote(files.submit(w))}.`,
    `ID="\${SLURM_ARRAY_TASK_ID:?submit as an array job, e.g. sbatch --array=0-${plan.tasks - 1} task.sh}"`,
    'JOB="${SLURM_JOB_ID:-0}"',
    `echo "$(date +%s) $(hostname)" > ${st}/task-"$ID"."$JOB".start`,
    `echo "iolens ${plan.kind} task $ID/${plan.tasks} (job $JOB) started on $(hostname) at $(date -u +%FT%TZ)"`,
    '# bin/iolens.js writes the process\'s CPU time and peak memory there at exit (shown by iolens slurm status).',
    `export IOLENS_STATS_FILE=${st}/task-"$ID"."$JOB".usage`,
    ...taskCommand(plan),
    `echo "$rc $(date +%s)" > ${st}/task-"$ID"."$JOB".exit.tmp && mv -f ${st}/task-"$ID"."$JOB".exit.tmp ${st}/task-"$ID"."$JOB".exit`,
    `echo "iolens ${plan.kind} task $ID/${plan.tasks} (job $JOB) ended with status $rc at $(date -u +%FT%TZ)"`,
    'exit $rc',
    '',
  ].join('\n');
}

/** The merge job: checks every shard, resubmits the missing ones (a new round), or merges and writes result.json. */
export function finishScript(plan: RunPlan): string {
  const w = plan.workdir;
  return [
    '#!/bin/bash',
    ...sbatchLines(plan.sbatch, `iolens-${plan.kind}-merge`, `${dirs.logs(w)}/finish-%j.log`, plan.cwd),
    HEADER,
    '# Runs after every task of its round has ended (afterany): merges when all shards are complete, otherwise',
    `# resubmits the missing ones with a new merge job (at most ${plan.retries} times).`,
    `exec ${shQuote(plan.node)} ${shQuote(plan.iolens)} slurm finish ${shQuote(w)}`,
    '',
  ].join('\n');
}

/**
 * Submits round ROUND: the array job for TASKS and the merge job after it, and records both in rounds/ROUND.json.
 * `bash submit.sh` submits the first round of every task; TASKS "none" submits only a merge job.
 */
export function submitScript(plan: RunPlan): string {
  const w = shQuote(plan.workdir);
  const throttle = plan.sbatch.maxRunning ? `%${plan.sbatch.maxRunning}` : '';
  return [
    '#!/bin/bash',
    HEADER,
    '# Usage: bash submit.sh [ROUND [TASKS]] — submits the array job for TASKS (Slurm array syntax; default all)',
    '# and the merge job that runs after it, and records them in rounds/ROUND.json.',
    'set -euo pipefail',
    `W=${w}`,
    'ROUND="${1:-1}"',
    `TASKS="\${2:-0-${plan.tasks - 1}}"`,
    '[[ "$ROUND" =~ ^[0-9]+$ ]] || { echo "submit.sh: ROUND must be a number" >&2; exit 2; }',
    '[[ "$TASKS" =~ ^([0-9,-]+|none)$ ]] || { echo "submit.sh: TASKS must be an array specification like 0-3,7" >&2; exit 2; }',
    'if [ "$TASKS" = none ]; then',
    '  A=""',
    '  F=$(sbatch --parsable --export=ALL "$W/finish.sh")',
    'else',
    `  A=$(sbatch --parsable --array="$TASKS${throttle}" --export=ALL "$W/task.sh")`,
    '  A="${A%%;*}"',
    '  F=$(sbatch --parsable --dependency="afterany:$A" --kill-on-invalid-dep=yes --export=ALL "$W/finish.sh") || { scancel "$A"; exit 1; }',
    'fi',
    'F="${F%%;*}"',
    'printf \'{"round":%s,"array":"%s","tasks":"%s","finish":"%s","submitted":%s}\\n\' "$ROUND" "$A" "$TASKS" "$F" "$(date +%s)" > "$W/rounds/$ROUND.json.tmp"',
    'mv -f "$W/rounds/$ROUND.json.tmp" "$W/rounds/$ROUND.json"',
    'echo "round $ROUND: array job ${A:-none} (tasks $TASKS), merge job $F"',
    '',
  ].join('\n');
}
