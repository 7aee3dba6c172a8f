import { randomUUID } from 'node:crypto';
import { diskTaken } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import { HttpError, conflict, invalid, notFound } from '../../http/errors.js';
import { projectExists } from '../projects/store.js';
import {
  deleteDiskRow,
  diskById,
  diskByIdOrName,
  disksIn,
  insertDisk,
  maxDiskSize,
  setDiskStatus,
  setLastUsage,
  setUsedBytes,
  type DiskView,
  type ProjectPlace,
} from './store.js';
import { DiskMeasures, makeVolume, removeVolume, volumeDir } from './volume.js';

export type DiskContext = Pick<AppContext, 'db' | 'config'>;

/**
 * What holds a disk beyond its row, answered by the jobs service once it starts: until then no
 * workload uses a disk and nothing else holds one's data. One per server (app.ts makes it), so
 * servers in one process, tests' or replicas', each keep their own, with their own measurements.
 */
export class DiskHolders {
  /** The disks' used bytes as this server last measured them. */
  readonly measures = new DiskMeasures();
  /** Whether a workload uses the disk: deleting one then answers 409. */
  inUse: (id: string) => Promise<boolean> = async () => false;
  /** What else holds a deleted disk's data: a cluster runtime's claim (kubernetes). */
  removed: (id: string) => Promise<void> = async () => undefined;
}

export async function createDisk(
  ctx: DiskContext,
  caller: Principal,
  p: ProjectPlace,
  d: { storage: number; lifeSpan: number | null; name: string | null },
): Promise<DiskView> {
  if (!(await projectExists(ctx.db, p.cluster, p.org, p.project))) {
    throw notFound('Project not found');
  }
  const limit = await maxDiskSize(ctx.db, p.cluster);
  if (limit !== null && d.storage > limit) {
    throw invalid('storage', `Storage must be at most ${limit} bytes, the disk size of a node`);
  }
  const id = `disk-${randomUUID()}`;
  const row = await insertDisk(ctx.db, {
    id,
    clusterName: p.cluster,
    orgName: p.org,
    projectName: p.project,
    name: d.name,
    storage: d.storage,
    usedBytes: 0,
    status: 'Pending',
    ownerId: caller.id,
    lifeSpan: d.lifeSpan,
  });
  if (!row) throw conflict(diskTaken(d.name ?? id), 'name');
  const made = await makeVolume(volumeDir(ctx.config.dataDir, row));
  await setDiskStatus(ctx.db, id, made ? 'Ready' : 'Broken');
  return (await diskById(ctx.db, id))!;
}

/**
 * Refreshes a disk's used bytes (from the cache unless `fresh`) and notices a directory that
 * vanished under a Ready disk.
 */
export async function withUsage(
  ctx: DiskContext,
  measures: DiskMeasures,
  d: DiskView,
  fresh: boolean,
) {
  const dir = volumeDir(ctx.config.dataDir, d);
  const bytes = await measures.usedBytes(dir, d.id, fresh);
  if (bytes === null) {
    if (d.status === 'Ready') {
      await setDiskStatus(ctx.db, d.id, 'Broken');
      return { ...d, status: 'Broken' };
    }
    return d;
  }
  if (bytes !== d.usedBytes) await setUsedBytes(ctx.db, d.id, bytes);
  return { ...d, usedBytes: bytes };
}

/** Removes a disk's directory and record; 409 while a workload uses it. */
export async function deleteDisk(
  ctx: DiskContext,
  holders: DiskHolders,
  d: { id: string } & Parameters<typeof volumeDir>[1],
) {
  if (await holders.inUse(d.id)) throw conflict(`Disk ${d.id} is in use`);
  await removeVolume(volumeDir(ctx.config.dataDir, d));
  await holders.removed(d.id);
  await deleteDiskRow(ctx.db, d.id);
  holders.measures.forget(d.id);
}

async function requireDisk(ctx: DiskContext, id: string) {
  const d = await diskById(ctx.db, id);
  if (!d) throw notFound(`Disk ${id} not found`);
  return d;
}

/** For the jobs module: a workload mounted the disk now (its lifespan counts from here). */
export async function markDiskUsed(ctx: DiskContext, id: string, at = new Date()) {
  await requireDisk(ctx, id);
  await setLastUsage(ctx.db, id, at);
}

/** For the runtimes: the directory to bind-mount for a disk. */
export async function diskVolumePath(ctx: DiskContext, id: string) {
  return volumeDir(ctx.config.dataDir, await requireDisk(ctx, id));
}

/** The disk's size in bytes (a cluster runtime's claim for it asks for as much). */
export async function diskStorage(ctx: DiskContext, id: string) {
  return (await requireDisk(ctx, id)).storage;
}

/**
 * For code that writes into a disk through Orrery (storage API, job outputs): refuses a write of
 * `bytes` that would take the disk beyond its storage.
 */
export async function assertDiskWrite(
  ctx: DiskContext,
  measures: DiskMeasures,
  id: string,
  bytes: number,
) {
  const d = await requireDisk(ctx, id);
  const used = (await measures.usedBytes(volumeDir(ctx.config.dataDir, d), id, true)) ?? 0;
  if (used + bytes > d.storage) {
    throw new HttpError(
      'unprocessable',
      `Not enough space on disk ${d.name ?? d.id}: ${Math.max(0, d.storage - used)} bytes free`,
    );
  }
}

/** The disks of a project (one owner's, when given), each with its use measured lately. */
export async function disksOf(
  ctx: DiskContext,
  measures: DiskMeasures,
  place: ProjectPlace,
  owner?: string,
) {
  const found = await disksIn(ctx.db, place, owner);
  return Promise.all(found.map((d) => withUsage(ctx, measures, d, false)));
}

/** One disk of the project, by id or name; 404 when there is none. */
export async function diskOf(ctx: DiskContext, place: ProjectPlace, idOrName: string) {
  const found = await diskByIdOrName(ctx.db, place, idOrName);
  if (!found) throw notFound(`Disk ${idOrName} not found`);
  return found;
}
