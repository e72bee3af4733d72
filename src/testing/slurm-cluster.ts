import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A private one-node Slurm cluster for the integration test (npm run test:slurm): munged, slurmctld and slurmd
 * started in the foreground as children of the test, with their key, state, spool, logs and configuration in one
 * temporary folder and their ports on the loopback address. Nothing outside that folder is written (apart from the
 * Debian packages, installed once when missing), and `stop` ends every job and daemon it started and removes the
 * folder.
 */

const PACKAGES = ['slurm-wlm', 'munge'];
const BINARIES = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scancel', 'scontrol', 'sinfo'];

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8', env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` } }).status === 0;
}

/** Installs Slurm and MUNGE from Debian when they are missing (root only). Returns why not, or null. */
export function ensureSlurm(): string | null {
  const missing = BINARIES.filter((b) => !which(b));
  if (missing.length === 0) return null;
  if (process.getuid?.() !== 0) return `Slurm is not installed (${missing.join(', ')} missing) and installing it needs root`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { env, encoding: 'utf8', timeout: 600_000 });
  if (update.status !== 0) return `apt-get update failed: ${update.stderr.trim().split('\n').at(-1)}`;
  const inst = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...PACKAGES], { env, encoding: 'utf8', timeout: 900_000 });
  if (inst.status !== 0) return `apt-get install ${PACKAGES.join(' ')} failed: ${inst.stderr.trim().split('\n').at(-1)}`;
  const still = BINARIES.filter((b) => !which(b));
  return still.length > 0 ? `still missing after installing ${PACKAGES.join(' ')}: ${still.join(', ')}` : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface SlurmCluster {
  readonly dir: string;
  /** Environment for Slurm commands and for iolens slurm (SLURM_CONF of this cluster). */
  readonly env: NodeJS.ProcessEnv;
  readonly node: string;
  /** The last lines of the daemons' logs (for failure messages). */
  logs(): string;
  /** Cancels every job, stops the daemons and removes the folder. */
  stop(): Promise<void>;
}

function tail(path: string, n = 15): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-n).join('\n');
  } catch {
    return '(no log)';
  }
}

async function until<T>(what: string, ms: number, probe: () => T | null | undefined | false, diag: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} not within ${ms / 1000} s\n${diag()}`);
    await sleep(250);
  }
}

/**
 * Starts the cluster: one node named after this host, with `cpus` CPUs (more than the machine has: Slurm is told to
 * believe the configuration, so several tasks share a core), one partition, jobs tracked by /proc (no cgroups
 * needed), no accounting database.
 */
export async function startCluster(opts: { cpus?: number } = {}): Promise<SlurmCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'iolens-slurm-'));
  chmodSync(dir, 0o755);
  const children: ChildProcess[] = [];
  const name = hostname().split('.')[0] || 'localhost';
  const conf = join(dir, 'slurm.conf');
  const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: conf, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };
  for (const d of ['munge', 'state', 'spool', 'log']) mkdirSync(join(dir, d), { mode: 0o755 });
  const start = (cmd: string, args: string[], log: string) => {
    const fd = openSync(join(dir, 'log', log), 'a');
    const child = spawn(cmd, args, { env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    child.on('error', () => undefined);
    children.push(child);
    return child;
  };
  const logs = () =>
    ['munged.out', 'slurmctld.log', 'slurmctld.out', 'slurmd.log', 'slurmd.out'].map((f) => `--- ${f}\n${tail(join(dir, 'log', f))}`).join('\n');
  const stop = async () => {
    // Jobs first (their processes are not the daemons' children), then the daemons, then the folder.
    spawnSync('scancel', ['--user', userInfo().username], { env, timeout: 30_000 });
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      const q = spawnSync('squeue', ['--noheader', '--states=PENDING,RUNNING,COMPLETING,CONFIGURING,SUSPENDED'], { env, encoding: 'utf8', timeout: 10_000 });
      if (q.status !== 0 || q.stdout.trim() === '') break;
      await sleep(250);
    }
    for (const c of [...children].reverse()) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      c.kill('SIGTERM');
      const gone = await Promise.race([new Promise<boolean>((r) => c.once('exit', () => r(true))), sleep(10_000).then(() => false)]);
      if (!gone) c.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Should the test process die without stopping the cluster, its daemons still go with it.
  process.once('exit', () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  try {
    const key = join(dir, 'munge', 'munge.key');
    writeFileSync(key, randomBytes(1024), { mode: 0o400 });
    const sock = join(dir, 'munge', 'munge.sock');
    start('munged', ['--foreground', '--force', `--socket=${sock}`, `--key-file=${key}`, `--log-file=${join(dir, 'log', 'munged.log')}`, `--pid-file=${join(dir, 'munge', 'munged.pid')}`, `--seed-file=${join(dir, 'munge', 'munged.seed')}`], 'munged.out');
    await until('munged socket', 15_000, () => existsSync(sock), logs);
    const [ctldPort, slurmdPort] = [await freePort(), await freePort()];
    const cpus = Math.max(opts.cpus ?? 8, availableParallelism());
    writeFileSync(
      conf,
      [
        'ClusterName=iolenstest',
        `SlurmctldHost=${name}(127.0.0.1)`,
        `SlurmctldPort=${ctldPort}`,
        `SlurmdPort=${slurmdPort}`,
        'AuthType=auth/munge',
        'CredType=cred/munge',
        `AuthInfo=socket=${sock}`,
        `SlurmUser=${userInfo().username}`,
        `SlurmdUser=${userInfo().username}`,
        `StateSaveLocation=${join(dir, 'state')}`,
        `SlurmdSpoolDir=${join(dir, 'spool')}`,
        `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
        `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
        `SlurmctldLogFile=${join(dir, 'log', 'slurmctld.log')}`,
        `SlurmdLogFile=${join(dir, 'log', 'slurmd.log')}`,
        'SlurmctldDebug=info',
        'SlurmdDebug=info',
        // Processes tracked through /proc and no task binding: no cgroup hierarchy of our own is needed.
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'JobAcctGatherType=jobacct_gather/none',
        'AccountingStorageType=accounting_storage/none',
        'JobCompType=jobcomp/none',
        'MpiDefault=none',
        'MailProg=/bin/true',
        'SchedulerType=sched/backfill',
        'SelectType=select/cons_tres',
        'SelectTypeParameters=CR_CPU',
        // Believe the node's configured CPU count, more than the machine has.
        'SlurmdParameters=config_overrides',
        'ReturnToService=2',
        'MinJobAge=600',
        'KillWait=5',
        'InactiveLimit=0',
        'SlurmdTimeout=120',
        `NodeName=${name} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=1000 State=UNKNOWN`,
        `PartitionName=debug Nodes=${name} Default=YES MaxTime=INFINITE State=UP`,
        '',
      ].join('\n'),
    );
    start('slurmctld', ['-D', '-f', conf], 'slurmctld.out');
    await until('slurmctld answering', 30_000, () => spawnSync('scontrol', ['ping'], { env, encoding: 'utf8', timeout: 10_000 }).stdout?.includes('UP'), logs);
    // slurmd 22.05 always loads a cgroup plugin, even with proctrack/linuxproc: the one matching the machine's
    // hierarchy first (v2 without systemd when only the unified hierarchy is mounted), the other if slurmd exits.
    const v1 = 'CgroupPlugin=cgroup/v1\n';
    const v2 = 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n';
    const plugins = existsSync('/sys/fs/cgroup/cgroup.controllers') ? [v2, v1] : [v1, v2];
    const nodeState = () => spawnSync('sinfo', ['--noheader', '--Node', '--format=%T'], { env, encoding: 'utf8', timeout: 10_000 }).stdout?.trim() ?? '';
    let up = false;
    for (const plugin of plugins) {
      writeFileSync(join(dir, 'cgroup.conf'), plugin);
      const slurmd = start('slurmd', ['-D', '-f', conf, '-N', name], 'slurmd.out');
      let resumed = false;
      const state = await until(
        'node idle',
        60_000,
        () => {
          if (slurmd.exitCode !== null || slurmd.signalCode !== null) return 'exited';
          const s = nodeState();
          // A node drained by an earlier registration (e.g. before config_overrides applied) is put back once.
          if (/^(drain|drained|draining|down)/.test(s) && !resumed) {
            resumed = true;
            spawnSync('scontrol', ['update', `nodename=${name}`, 'state=resume'], { env, timeout: 10_000 });
          }
          return s === 'idle' ? 'idle' : null;
        },
        () => `${spawnSync('scontrol', ['show', 'node'], { env, encoding: 'utf8' }).stdout ?? ''}\n${logs()}`,
      );
      if (state === 'idle') {
        up = true;
        break;
      }
    }
    if (!up) throw new Error(`slurmd exits with either cgroup plugin\n${logs()}`);
    return { dir, env, node: name, logs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
