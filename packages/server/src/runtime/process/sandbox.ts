import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { JobMount } from '../driver.js';
import { appRuntimeBinds } from './app-runtime.js';

export const BWRAP = '/usr/bin/bwrap';

/** Secrets of the host and its daemons, masked inside the job's read-only /etc when present. */
const ETC_SECRET_FILES = [
  'shadow',
  'gshadow',
  'shadow-',
  'gshadow-',
  'sudoers',
  'security/opasswd',
];
const ETC_SECRET_DIRS = ['ssh', 'ssl/private', 'munge', 'slurm', 'sudoers.d', 'docker', 'orrery'];
/** The top-level entries that merged-/usr systems make links into /usr. */
const USR_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];
const DEVICES = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];
/** NVIDIA's control nodes, needed beside /dev/nvidiaN by every CUDA program. */
const NVIDIA_CONTROL = ['nvidiactl', 'nvidia-uvm', 'nvidia-uvm-tools', 'nvidia-modeset'];

export interface SandboxOptions {
  /** The job's `etc` directory (identity.ts writeEtc): passwd, group, empty, resolv.conf. */
  etcDir: string;
  /** Host directory shown as the job's private /tmp. */
  tmpDir: string;
  mounts: JobMount[];
  workingDir: string;
  hostname: string;
  /** Indexes of the NVIDIA GPUs assigned to the job (/dev/nvidiaN); none for most jobs. */
  gpus: number[];
  /**
   * Whether slirp4netns gives the job a network (its resolv.conf then points at it); a Slurm
   * job's pasta answers DNS at the node's own resolver address, so the node's file stays.
   */
  network: boolean;
  /** A gang's worker entered its rank 0's network namespace already: it makes none (gang.ts). */
  joinsNetwork?: boolean;
  /** Whether `etcDir` has a `hosts` to show as /etc/hosts (a gang's workers' names). */
  hosts?: boolean;
  /** A gang's directory, shown read-only at /run/orrery (worker-exec.ts GUEST_DIR). */
  gangDir?: string;
  /** Whether the job gets a devpts of its own, for pseudo-terminals (ptys.ts). */
  ptys?: boolean;
  exists?: (path: string) => boolean;
  /**
   * A Slurm batch script runs bwrap itself (slurm/script.ts): for a GPU job, whichever
   * /dev/nvidiaN the node has (`--dev-bind-try`), since Slurm's device cgroup lets the job open
   * only those it was given.
   */
  batch?: { gpus: boolean };
}

/**
 * bubblewrap arguments (before the command) for an allow-listed root: /usr and its links, a
 * curated /etc, the job's own /tmp, /proc and a /dev built by hand (`--dev` would make bwrap nest
 * a second user namespace that the network helper cannot join), the job's volumes, Orrery's app
 * programs read-only (app-runtime.ts) and nothing else of the host, in new user, PID, IPC, UTS and network namespaces without capabilities.
 * bwrap reports the sandbox's first pid on fd 3 and waits on fd 4 until the network is up.
 */
export function bwrapArgs(o: SandboxOptions): string[] {
  const exists = o.exists ?? existsSync;
  const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts'];
  if (!o.joinsNetwork) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL', '--hostname', o.hostname.slice(0, 63));
  const targets = o.mounts.map((m) => m.dstPath);
  args.push(...readOnlyTree('/usr', targets));
  for (const name of USR_LINKS) {
    const path = `/${name}`;
    if (!exists(path)) continue;
    const link = lstatSync(path).isSymbolicLink();
    args.push(...(link ? ['--symlink', readlinkSync(path), path] : ['--ro-bind', path, path]));
  }
  args.push(...readOnlyTree('/etc', targets));
  for (const f of ETC_SECRET_FILES) {
    if (exists(`/etc/${f}`)) args.push('--ro-bind', join(o.etcDir, 'empty'), `/etc/${f}`);
  }
  for (const d of ETC_SECRET_DIRS) if (exists(`/etc/${d}`)) args.push('--tmpfs', `/etc/${d}`);
  args.push('--ro-bind', join(o.etcDir, 'passwd'), '/etc/passwd');
  args.push('--ro-bind', join(o.etcDir, 'group'), '/etc/group');
  if (o.network) args.push('--ro-bind', join(o.etcDir, 'resolv.conf'), '/etc/resolv.conf');
  if (o.hosts) args.push('--ro-bind', join(o.etcDir, 'hosts'), '/etc/hosts');
  args.push(...devArgs(o.gpus, exists, o.ptys ?? false));
  if (o.batch?.gpus) args.push(...anyGpus());
  args.push('--proc', '/proc', '--bind', o.tmpDir, '/tmp');
  args.push('--dir', '/var', '--tmpfs', '/var/tmp', '--tmpfs', '/run');
  if (o.gangDir) args.push('--ro-bind', o.gangDir, '/run/orrery');
  // NVIDIA's libraries read the PCI topology; other jobs do without the host's /sys.
  if (o.gpus.length > 0 || o.batch?.gpus) args.push('--ro-bind', '/sys', '/sys');
  args.push(...appRuntimeBinds(o.exists, !!o.batch));
  const byDepth = [...o.mounts].sort((a, b) => depth(a.dstPath) - depth(b.dstPath));
  for (const m of byDepth) args.push(m.readOnly ? '--ro-bind' : '--bind', m.hostPath, m.dstPath);
  args.push('--dir', o.workingDir, '--chdir', o.workingDir, '--remount-ro', '/');
  args.push('--info-fd', '3', '--block-fd', '4');
  return args;
}

/** Up to 16 GPUs and NVIDIA's control nodes, each bound only where the node has it. */
function anyGpus(): string[] {
  const nodes = [...Array(16).keys()].map((i) => `nvidia${i}`).concat(NVIDIA_CONTROL);
  return nodes.flatMap((d) => ['--dev-bind-try', `/dev/${d}`, `/dev/${d}`]);
}

/**
 * A host directory bound read-only, or, when a volume is mounted below it, remade on the
 * sandbox's root with its entries bound one by one down to the mount point: a read-only bind
 * leaves no room to make the mount point in.
 */
function readOnlyTree(path: string, targets: string[]): string[] {
  if (!targets.some((t) => t.startsWith(path + '/'))) return ['--ro-bind', path, path];
  const args = ['--dir', path];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    // The mount itself takes its place.
    if (targets.includes(p)) continue;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
    else if (entry.isDirectory()) args.push(...readOnlyTree(p, targets));
    else args.push('--ro-bind', p, p);
  }
  return args;
}

/**
 * A tmpfs /dev with the usual character devices, and only the job's own GPUs: bwrap's own
 * (`--dev`, with a devpts for ptys) where the network helper can reach a nested user namespace
 * (ptys.ts), else built by hand.
 */
function devArgs(gpus: number[], exists: (path: string) => boolean, ptys: boolean): string[] {
  const args = ptys ? ['--dev', '/dev', '--tmpfs', '/dev/shm'] : ['--tmpfs', '/dev'];
  if (!ptys) {
    for (const d of DEVICES) args.push('--dev-bind', `/dev/${d}`, `/dev/${d}`);
    args.push('--tmpfs', '/dev/shm', '--symlink', '/proc/self/fd', '/dev/fd');
    ['stdin', 'stdout', 'stderr'].forEach((s, fd) =>
      args.push('--symlink', `/proc/self/fd/${fd}`, `/dev/${s}`),
    );
  }
  if (gpus.length === 0) return args;
  // Each where the host has it: a machine whose GPUs the operator described (ORRERY_GPU_DESCRIPTION)
  // may name devices it has no node for, and bwrap fails on a missing source.
  for (const i of gpus) {
    if (exists(`/dev/nvidia${i}`)) args.push('--dev-bind', `/dev/nvidia${i}`, `/dev/nvidia${i}`);
  }
  for (const d of NVIDIA_CONTROL) {
    if (exists(`/dev/${d}`)) args.push('--dev-bind', `/dev/${d}`, `/dev/${d}`);
  }
  return args;
}

/**
 * The lowest free GPU indexes for a job asking for `count`, given the machine's `total` and what
 * running jobs hold; null when too few are free.
 */
export function assignGpus(total: number, held: Iterable<number>, count: number): number[] | null {
  const busy = new Set(held);
  const free = [...Array(total).keys()].filter((i) => !busy.has(i));
  return free.length >= count ? free.slice(0, count) : null;
}

/**
 * What CUDA calls the job's GPUs: the only ones it can open, numbered from 0 whatever their
 * host indexes; empty for a job without GPUs.
 */
export function gpuEnv(gpus: number[]): Record<string, string> {
  return gpus.length > 0 ? { CUDA_VISIBLE_DEVICES: gpus.map((_, i) => i).join(',') } : {};
}

const depth = (p: string) => p.split('/').filter(Boolean).length;
