import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/**
 * The local disk backend (docs/disks.md: disks are directories with size accounting and lifespans):
 * one directory per disk under `<dataDir>/disks/<cluster>/<org>/<project>/<disk-id>`.
 */
export interface DiskPlace {
  id: string;
  clusterName: string;
  orgName: string;
  projectName: string;
}

export function volumeDir(dataDir: string, d: DiskPlace): string {
  const root = resolve(dataDir, 'disks');
  const dir = resolve(root, d.clusterName, d.orgName, d.projectName, d.id);
  // Names are validated platform names, but a path must never leave the disks root.
  if (!dir.startsWith(root + sep)) throw new Error(`Disk path escapes the data directory: ${dir}`);
  return dir;
}

export async function makeVolume(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

export const removeVolume = (dir: string) => rm(dir, { recursive: true, force: true });

/** Bytes of every file below `dir`, symlinks counted as themselves; null if `dir` is gone. */
export async function measure(dir: string): Promise<number | null> {
  try {
    if (!(await lstat(dir)).isDirectory()) return null;
  } catch {
    return null;
  }
  let total = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue; // removed while walking: it no longer uses space
    }
    for (const e of entries) {
      const path = join(current, e.name);
      if (e.isDirectory()) pending.push(path);
      else
        total += await lstat(path).then(
          (s) => s.size,
          () => 0,
        );
    }
  }
  return total;
}

/** Measurements are cached: walking a large disk on every list would be slow. */
export const MEASURE_MAX_AGE_MS = 30_000;

/** A server's latest measurement of each disk, by id (its DiskHolders keeps one). */
export class DiskMeasures {
  private readonly measured = new Map<string, { at: number; bytes: number | null }>();

  /** The bytes under `dir`: measured now when `fresh` or when the last measurement is old. */
  async usedBytes(dir: string, id: string, fresh: boolean, now = Date.now()) {
    const cached = this.measured.get(id);
    if (!fresh && cached && now - cached.at < MEASURE_MAX_AGE_MS) return cached.bytes;
    const bytes = await measure(dir);
    this.measured.set(id, { at: now, bytes });
    return bytes;
  }

  forget(id: string) {
    this.measured.delete(id);
  }
}
