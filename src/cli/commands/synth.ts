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
      .option('--seed <n>', 'random seed (same seed, same log)', count('seed', 2 ** 32 - 1), 1)
      .option('--force', 'overwrite <out> if it exists')
      .action(async (out: string, o: { posixFiles: number; sharedFiles?: number; nprocs: number; dxtSegments: number; accessBytes: number; mpiio?: boolean; seed: number; force?: boolean }) => {
        if (existsSync(out) && !o.force) throw new UserError(`${out} exists; not overwriting it (use --force)`);
        if (o.nprocs < 1) throw new UserError('--nprocs must be at least 1');
        const { synthesizeLog } = await import('../../formats/darshan/synth.js');
        const { writeLog } = await import('../../formats/darshan/writer.js');
        const bytes = writeLog(
          synthesizeLog({ posixFiles: o.posixFiles, sharedFiles: o.sharedFiles, nprocs: o.nprocs, dxtSegments: o.dxtSegments, accessBytes: o.accessBytes, mpiio: !!o.mpiio, seed: o.seed }),
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
