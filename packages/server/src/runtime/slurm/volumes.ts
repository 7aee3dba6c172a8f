import { copyFile, mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { JobMount, JobSpec } from '../driver.js';
import { shareVolume } from '../process/volumes.js';

/**
 * The job's volumes as the nodes see them: storage and disks must lie in the shared directory
 * (the server's data directory under it); a secret file is copied into the job's directory.
 * Each is made reachable by the service user as the process runtime does for its jobs' uids.
 */
export async function slurmMounts(
  spec: JobSpec,
  dir: string,
  sharedDir: string,
  ids: { uid: number; gid: number },
): Promise<JobMount[]> {
  const out: JobMount[] = [];
  for (const [i, m] of spec.mounts.entries()) {
    let mount = m;
    if (m.source?.kind === 'secret') {
      await mkdir(join(dir, 'secrets'), { recursive: true });
      mount = { ...m, hostPath: join(dir, 'secrets', String(i)) };
      await copyFile(m.hostPath, mount.hostPath);
    } else if (relative(sharedDir, m.hostPath).startsWith('..')) {
      throw new Error(
        `The volume at ${m.dstPath} is not on the shared directory the Slurm nodes see (ORRERY_SLURM_SHARED_DIR): put the server's data directory (ORRERY_DATA_DIR) under it`,
      );
    }
    await shareVolume(mount, dir, ids);
    out.push(mount);
  }
  return out;
}
