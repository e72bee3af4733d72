import type { Command } from 'commander';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { CommandModule } from './command.js';
import { UserError } from '../errors.js';

function count(name: string, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > max) throw new UserError(`--${name} takes a whole number from 0 to ${max}, not ${JSON.stringify(v)}`);
    return n;
  };
}

/** A comma-separated list of OST indices (`14` or `3,17`). */
function ostList(name: string) {
  return (v: string): number[] => {
    const xs = v.split(',').map((x) => Number(x.trim()));
    if (!v.trim() || xs.some((x) => !Number.isInteger(x) || x < 0 || x > 65535)) throw new UserError(`--${name} takes OST indices from 0 to 65535 separated by commas, not ${JSON.stringify(v)}`);
    return xs;
  };
}

const synth: CommandModule = {
  name: 'synth',
  register(program: Command) {
    program
      .command('synth')
      .description('write a synthetic Darshan log (format 3.41, zlib) for benchmarks and tests')
      .argument('<out>', 'output file (.darshan); an existing file is never overwritten unless --force')
      .option('--posix-files <n>', 'POSIX file records', count('posix-files', 10_000_000), 8)
      .option('--shared-files <n>', 'of which shared by all ranks', count('shared-files', 10_000_000))
      .option('--nprocs <n>', 'number of processes', count('nprocs', 10_000_000), 4)
      .option('--dxt-segments <n>', 'DXT_POSIX trace segments in all', count('dxt-segments', 200_000_000), 0)
      .option('--access-bytes <n>', 'typical request size in bytes', count('access-bytes', 2 ** 40), 1 << 20)
      .option('--mpiio', 'also write MPI-IO records for the shared files')
      .option('--lustre-osts <n>', 'write a LUSTRE record per POSIX file over this many OSTs (files of one rank: one stripe each, round robin)', count('lustre-osts', 65536), 0)
      .option('--stripe-count <n>', 'stripe count of the shared files (default min(4, OSTs))', count('stripe-count', 2000))
      .option('--stripe-size <n>', 'stripe size in bytes', count('stripe-size', 2 ** 32), 1 << 20)
      .option('--slow-osts <list>', 'OSTs (comma-separated) whose files run --slow-factor times slower', ostList('slow-osts'))
      .option('--slow-factor <n>', 'how many times slower the slow OSTs are', count('slow-factor', 1_000_000), 20)
      .option('--small-request-osts <list>', 'OSTs whose files issue 64 times smaller requests and run --slow-factor times slower', ostList('small-request-osts'))
      .option('--run-seconds <n>', "the job's run time in seconds (default 60; longer when its files take longer)", count('run-seconds', 10_000_000), 60)
      .option('--seed <n>', 'random seed (same seed, same log)', count('seed', 2 ** 32 - 1), 1)
      .option('--force', 'overwrite <out> if it exists')
      .action(async (out: string, o: { posixFiles: number; sharedFiles?: number; nprocs: number; dxtSegments: number; accessBytes: number; mpiio?: boolean; seed: number; force?: boolean; lustreOsts: number; stripeCount?: number; stripeSize: number; slowOsts?: number[]; slowFactor: number; smallRequestOsts?: number[]; runSeconds: number }) => {
        if (existsSync(out) && !o.force) throw new UserError(`${out} exists; not overwriting it (use --force)`);
        if (o.nprocs < 1) throw new UserError('--nprocs must be at least 1');
        if ((o.slowOsts || o.smallRequestOsts || o.stripeCount !== undefined) && o.lustreOsts < 1) throw new UserError('--slow-osts, --small-request-osts and --stripe-count need --lustre-osts');
        if (o.stripeCount === 0 || o.stripeSize === 0 || o.slowFactor === 0 || o.runSeconds === 0) throw new UserError('--stripe-count, --stripe-size, --slow-factor and --run-seconds must be at least 1');
        const { synthesizeLog } = await import('../../formats/darshan/synth.js');
        const { writeLog } = await import('../../formats/darshan/writer.js');
        const bytes = writeLog(
          synthesizeLog({
            posixFiles: o.posixFiles, sharedFiles: o.sharedFiles, nprocs: o.nprocs, dxtSegments: o.dxtSegments, accessBytes: o.accessBytes, mpiio: !!o.mpiio, seed: o.seed,
            lustreOsts: o.lustreOsts, stripeCount: o.stripeCount, stripeSize: o.stripeSize, slowOsts: o.slowOsts, slowFactor: o.slowFactor, smallRequestOsts: o.smallRequestOsts, runSeconds: o.runSeconds,
          }),
        );
        const tmp = `${out}.tmp-${process.pid}`;
        try {
          writeFileSync(tmp, bytes);
          renameSync(tmp, out);
        } catch (err) {
          rmSync(tmp, { force: true });
          const code = (err as NodeJS.ErrnoException).code;
          throw new UserError(`${out}: cannot write (${code === 'ENOENT' ? 'no such folder' : code === 'EISDIR' ? 'a directory' : (code ?? (err as Error).message)})`);
        }
        process.stderr.write(`wrote ${out} (${bytes.length} bytes)\n`);
      });
  },
};

export default synth;
