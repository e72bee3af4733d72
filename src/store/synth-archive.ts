import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { synthesizeLog } from '../formats/darshan/synth.js';
import { rng } from '../util/random.js';
import { writeLog } from '../formats/darshan/writer.js';

/** What `makeArchive` wrote. */
export interface ArchiveInfo {
  /** Files written (logs plus duplicates plus junk). */
  files: number;
  /** Distinct readable logs. */
  logs: number;
  /** Extra byte-identical copies of logs under other names. */
  duplicates: number;
  /** Files named *.darshan that are not logs. */
  junk: number;
  bytes: number;
}

export interface ArchiveOptions {
  logs: number;
  seed?: number;
  /** Every k-th log also gets a byte-identical copy elsewhere (0: none). */
  duplicateEvery?: number;
  /** Every k-th log is followed by a corrupt file (0: none). */
  junkEvery?: number;
}

const APPS = ['vasp_std', 'lmp_mpi', 'python', 'ior', 'nwchem', 'cp2k.psmp', 'gromacs', 'wrf.exe', 'e3sm.exe', 'hacc_io'];

/**
 * Writes a synthetic Darshan archive laid out as facilities keep them (year/month/day/user_app_idJOB….darshan),
 * using the log synthesizer: jobs vary in ranks (1…2048), files (1…64), shared files, MPI-IO, STDIO and access
 * sizes, so the logs are typical small production logs. Deterministic for a given seed.
 */
export function makeArchive(dir: string, opts: ArchiveOptions): ArchiveInfo {
  const rand = rng(opts.seed ?? 1);
  const info: ArchiveInfo = { files: 0, logs: 0, duplicates: 0, junk: 0, bytes: 0 };
  const base = Date.UTC(2023, 0, 1) / 1000;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  for (let i = 0; i < opts.logs; i++) {
    const start = Math.floor(base + i * 300 + rand() * 300);
    const d = new Date(start * 1000);
    const sub = join(dir, String(d.getUTCFullYear()), String(d.getUTCMonth() + 1), String(d.getUTCDate()));
    mkdirSync(sub, { recursive: true });
    const app = pick(APPS);
    const nprocs = pick([1, 1, 4, 16, 32, 64, 128, 256, 512, 2048]);
    const jobid = 1_000_000 + i;
    const input = synthesizeLog({
      seed: (opts.seed ?? 1) * 1_000_003 + i,
      nprocs,
      posixFiles: 1 + Math.floor(rand() * (rand() < 0.8 ? 8 : 64)),
      sharedFiles: rand() < 0.4 ? 1 : 0,
      mpiio: nprocs > 1 && rand() < 0.5,
      stdio: rand() < 0.8,
      accessBytes: pick([512, 4096, 65536, 1048576, 4194304]),
      jobid,
      startTime: start,
      runSeconds: 10 + Math.floor(rand() * 3600),
      exe: `/apps/${app}/bin/${app} -i input.${i % 97}`,
    });
    const bytes = writeLog(input);
    const name = `user${i % 53}_${app.replace(/\W/g, '')}_id${jobid}_${d.getUTCMonth() + 1}-${d.getUTCDate()}-${start % 86400}-${Math.floor(rand() * 1e9)}_1.darshan`;
    writeFileSync(join(sub, name), bytes);
    info.files++;
    info.logs++;
    info.bytes += bytes.length;
    if (opts.duplicateEvery && i % opts.duplicateEvery === opts.duplicateEvery - 1) {
      writeFileSync(join(sub, `copy-of-${name}`), bytes);
      info.files++;
      info.duplicates++;
      info.bytes += bytes.length;
    }
    if (opts.junkEvery && i % opts.junkEvery === opts.junkEvery - 1) {
      const junk = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 40 + (i % 200))));
      writeFileSync(join(sub, `truncated-${name}`), junk);
      info.files++;
      info.junk++;
      info.bytes += junk.length;
    }
  }
  return info;
}
