import { realpath } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { JobMount } from '../driver.js';

/** The data directory's parts a job's volumes come from: storage folders, disks, its secrets. */
const VOLUME_ROOTS = ['storage', 'disks', 'jobs'];

/**
 * The job's bind mounts as the engine will see them, or an error. The engine (root) follows
 * symbolic links in a bind's source, and jobs write into the folders they mount: a link a job
 * left in its storage folder could make a later job's volume the Docker socket, the data
 * directory or `/`. So every source must be below one of the volume roots with no link on the
 * way, and the canonical path is what gets bound.
 */
export async function checkedMounts(dataDir: string, mounts: JobMount[]): Promise<JobMount[]> {
  const root = await realpath(dataDir);
  return Promise.all(
    mounts.map(async (m) => {
      const wanted = resolve(root, relative(resolve(dataDir), resolve(m.hostPath)));
      const real = await realpath(m.hostPath).catch(() => null);
      const [top] = relative(root, wanted).split(sep);
      if (!real || !VOLUME_ROOTS.includes(top) || wanted === resolve(root, top)) {
        throw new Error(`The volume at ${m.dstPath} is not a storage folder, disk or secret`);
      }
      if (real !== wanted) {
        throw new Error(
          `The volume at ${m.dstPath} leads through a symbolic link (${wanted} is ${real}): refused, as it could lead anywhere on the host`,
        );
      }
      return { ...m, hostPath: real };
    }),
  );
}
