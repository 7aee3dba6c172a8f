import { existsSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JobMount } from '../driver.js';

export const BWRAP = '/usr/bin/bwrap';

/** Host paths a job must not see even read-only: the server's data and container engines. */
export function hiddenPaths(dataDir: string, dockerHost?: string): string[] {
  const candidates = [
    dataDir,
    '/run/docker.sock',
    '/run/containerd/containerd.sock',
    ...(dockerHost?.startsWith('unix://') ? [dockerHost.slice('unix://'.length)] : []),
  ];
  const real = candidates.filter((p) => existsSync(p)).map((p) => realpathSync(p));
  // The job's /tmp is its own already.
  return [...new Set(real)].filter((p) => !p.startsWith('/tmp/'));
}

export interface SandboxOptions {
  mounts: JobMount[];
  /** Host directory shown as the job's private /tmp. */
  tmpDir: string;
  workingDir: string;
  hidden: string[];
  /** NVIDIA device nodes are passed in when the job asked for GPUs. */
  gpu: boolean;
}

/**
 * bubblewrap arguments (before the command) for a read-only view of the host with the job's
 * mounts, a private /tmp, /proc and /dev, its own PID namespace (killing the group's bwrap kills
 * every process in it) and no capabilities (so even root inside cannot remount a read-only
 * mount writable).
 *
 * The root is bwrap's tmpfs with each top-level host entry bound read-only onto it. A mount point
 * has to be created, which a read-only bind does not allow, so every host directory on the way to
 * a mount point (or a working directory that does not exist) is spliced: made on the tmpfs with
 * its own entries bound one by one.
 */
export function bwrapArgs(o: SandboxOptions): string[] {
  const targets = [...o.mounts.map((m) => m.dstPath)];
  if (!existsSync(o.workingDir)) targets.push(o.workingDir);
  const args = [...hostView('/', targets)];
  args.push('--dev', '/dev', '--proc', '/proc', '--bind', o.tmpDir, '/tmp');
  if (o.gpu) {
    for (const d of readdirSync('/dev').filter((n) => n.startsWith('nvidia'))) {
      args.push('--dev-bind', `/dev/${d}`, `/dev/${d}`);
    }
  }
  for (const p of o.hidden) {
    args.push(...(statSync(p).isDirectory() ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]));
  }
  const byDepth = [...o.mounts].sort((a, b) => depth(a.dstPath) - depth(b.dstPath));
  for (const m of byDepth) args.push(m.readOnly ? '--ro-bind' : '--bind', m.hostPath, m.dstPath);
  args.push('--dir', o.workingDir, '--chdir', o.workingDir);
  args.push('--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL', '--remount-ro', '/');
  return args;
}

const SKIP_AT_ROOT = new Set(['/proc', '/dev', '/tmp']);

function hostView(dir: string, targets: string[]): string[] {
  const args: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (SKIP_AT_ROOT.has(path)) continue;
    const inner = targets.filter((t) => t === path || t.startsWith(path + '/'));
    if (inner.length > 0) {
      // Replaced by the mount itself, or spliced to make room for one below it.
      if (entry.isDirectory() && !inner.includes(path)) {
        args.push('--dir', path, ...hostView(path, inner));
      }
    } else if (entry.isSymbolicLink()) {
      args.push('--symlink', readlinkSync(path), path);
    } else {
      args.push('--ro-bind', path, path);
    }
  }
  return args;
}

const depth = (p: string) => p.split('/').filter(Boolean).length;
