import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { JobMount } from '../driver.js';
import { JOBS_GROUP, type JobIdentity } from './identity.js';

/**
 * bwrap runs as the job's uid, so every host path it binds must be reachable by that uid: the
 * directories between the data directory and the path become searchable (not listable) by the
 * jobs group. Above the data directory nothing is changed; an unreachable path is an error, and
 * so is a symbolic link on the way (a job may have made it in a volume, pointing anywhere).
 */
export async function grantTraverse(dataDir: string, path: string, gid: number): Promise<void> {
  const shared: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    // The data directory and the jobs root, once found searchable, stay so for every job.
    if (searchable.has(dir)) return;
    const inside = !relative(dataDir, dir).startsWith('..');
    const st = await (inside ? lstat(dir) : stat(dir));
    if (st.isSymbolicLink()) throw new Error(`Refusing to bind ${path}: ${dir} is a symbolic link`);
    const reachable = (st.mode & 0o001) !== 0 || (st.gid === gid && (st.mode & 0o010) !== 0);
    if (!reachable) {
      if (!inside) {
        throw new Error(
          `Jobs cannot reach ${path}: ${dir} is not searchable by others or the ${JOBS_GROUP} group`,
        );
      }
      await withNoLink(dir, dir, async (fh, s) => {
        await fh.chown(s.uid, gid);
        await fh.chmod((s.mode & 0o7777) | 0o010);
      });
    }
    if (dir === dataDir || dir === join(dataDir, 'jobs')) shared.push(dir);
    if (dir === dirname(dir)) break;
  }
  for (const dir of shared) searchable.add(dir);
}

const searchable = new Set<string>();

/**
 * A volume readable, and writable where the mount allows, by the job: a directory tree joins the
 * jobs group (setgid, group read-write) the first time a job mounts it, so every job of the
 * project shares it like the docker runtime's root does; later files inherit the group and jobs
 * write with umask 002. A file the service wrote for this job alone (a secret volume under the
 * job's directory) is handed to the job's uid. A volume whose path holds a symbolic link is
 * refused: a job could have made it to mount another project's files.
 */
export async function shareVolume(mount: JobMount, jobDir: string, ids: JobIdentity) {
  const path = resolve(mount.hostPath);
  if ((await realpath(path)) !== path) {
    throw new Error(`Refusing to mount ${mount.dstPath}: its path holds a symbolic link`);
  }
  const st = await stat(path);
  if (!st.isDirectory() && path.startsWith(jobDir + sep)) {
    await withNoLink(path, path, async (fh) => {
      await fh.chown(ids.uid, ids.uid);
      await fh.chmod(0o400);
    });
    return;
  }
  if (mount.owned) return ownTree(path, path, ids);
  if (st.gid === ids.gid && (st.mode & 0o2070) === 0o2070) return;
  await shareTree(path, path, ids.gid);
}

/**
 * A volume the job owns (JobMount.owned): every entry of the tree passes to the job's uid, modes
 * kept (a data directory stays 0700), so a server that insists on owning its files finds the ones
 * an earlier job of the instance, with another uid, left. Never through a link, never outside the
 * volume; the root gets the owner's rwx, as the server made it.
 */
async function ownTree(root: string, path: string, ids: JobIdentity): Promise<void> {
  const dir = await withNoLink(root, path, async (fh, st) => {
    if (st.uid !== ids.uid || st.gid !== ids.gid) await fh.chown(ids.uid, ids.gid);
    if (path === root) await fh.chmod((st.mode & 0o7777) | 0o700);
    return st.isDirectory();
  });
  if (!dir) return;
  // A fresh cluster has about a thousand files: a few at once, within the open-files limit.
  const entries = await readdir(path);
  for (let i = 0; i < entries.length; i += OWN_AT_ONCE) {
    const batch = entries.slice(i, i + OWN_AT_ONCE);
    await Promise.all(batch.map((entry) => ownTree(root, join(path, entry), ids)));
  }
}

const OWN_AT_ONCE = 32;

async function shareTree(root: string, path: string, gid: number): Promise<void> {
  const dir = await withNoLink(root, path, async (fh, st) => {
    await fh.chown(st.uid, gid);
    await fh.chmod((st.mode & 0o7777) | (st.isDirectory() ? 0o2070 : 0o060));
    return st.isDirectory();
  });
  if (!dir) return;
  for (const entry of await readdir(path)) await shareTree(root, join(path, entry), gid);
}

type Handle = Awaited<ReturnType<typeof open>>;

/**
 * Runs `fn` on the file itself, never on what a symbolic link points to: opened without
 * following a link, and only if it still lies under `root` (a job may swap a directory on the
 * way for a link while this runs, as root, over a tree it can write). Sockets and the like,
 * which cannot be opened, are left alone.
 */
async function withNoLink<T>(
  root: string,
  path: string,
  fn: (fh: Handle, st: Stats) => Promise<T>,
): Promise<T | undefined> {
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const fh = await open(path, flags).catch(() => null);
  if (!fh) return undefined;
  try {
    const real = await readlink(`/proc/self/fd/${fh.fd}`);
    if (real !== root && !real.startsWith(root + sep)) return undefined;
    return await fn(fh, await fh.stat());
  } finally {
    await fh.close();
  }
}
