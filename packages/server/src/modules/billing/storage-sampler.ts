import { storageUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { BlobBackend } from '../../blob/backend.js';
import { allProjectPlaces, chargedUris, volumesByCluster, type Volume } from './store-samples.js';
import { accrue } from './metering.js';
import { runEvery, type LoopHost } from './periodic.js';

/** Each project's files are charged once per period, at the size measured in it. */
export const STORAGE_PERIOD_MS = 3_600_000;
/** How often the sampler looks for projects not yet charged for the current period. */
export const STORAGE_CHECK_MS = 60_000;
const BYTES_PER_GB = 1000 ** 3;

/** The volume holding a project's files, as Apolo matches it: /org/project, /org, the default. */
export function volumeOf(volumes: Volume[], org: string, project: string): Volume | undefined {
  return (
    volumes.find((v) => v.path === `/${org}/${project}`) ??
    volumes.find((v) => v.path === `/${org}`) ??
    volumes.find((v) => !v.path)
  );
}

/**
 * The sample period (STORAGE_PERIOD_MS) that holds `now`, and the URIs of the resources of
 * `category` already charged for it.
 */
export async function samplePeriod(db: Db, category: string, now: Date) {
  const from = new Date(Math.floor(now.getTime() / STORAGE_PERIOD_MS) * STORAGE_PERIOD_MS);
  const until = new Date(from.getTime() + STORAGE_PERIOD_MS);
  return { from, until, done: await chargedUris(db, category, from) };
}

/**
 * Charges the period that holds `now` for every project not charged for it yet: GB × hours of
 * the period × its volume's price, one usage row per project and period (category storage,
 * named by the volume). The row's key makes a second replica's sample of the same period, or a
 * sample after a restart, charge nothing. Returns how many projects were charged.
 */
export async function sampleStorage(db: Db, files: BlobBackend, now = new Date()) {
  const { from, until, done } = await samplePeriod(db, 'storage', now);
  const volumes = await volumesByCluster(db);
  const all = await allProjectPlaces(db);
  let charged = 0;
  for (const p of all) {
    const uri = storageUri(p.cluster, p.org, p.project);
    const volume = volumeOf(volumes.get(p.cluster) ?? [], p.org, p.project);
    if (done.has(uri) || !volume) continue;
    const gb = (await files.bytes([p.cluster, p.org, p.project])) / BYTES_PER_GB;
    const hours = STORAGE_PERIOD_MS / 3_600_000;
    const credits = gb * hours * Number(volume.creditsPerHourPerGb);
    const added = await db.transaction((tx) =>
      accrue(tx, {
        category: 'storage',
        cluster: p.cluster,
        org: p.org,
        project: p.project,
        userId: null,
        resourceUri: uri,
        resourceId: volume.name,
        from,
        until,
        credits,
      }),
    );
    if (added) charged += 1;
  }
  return charged;
}

/** Samples storage just after the start and every STORAGE_CHECK_MS, one sample at a time. */
export const startStorageSampler = (
  db: Db,
  files: BlobBackend,
  host: LoopHost,
  everyMs = STORAGE_CHECK_MS,
) => runEvery(() => sampleStorage(db, files), everyMs, host, 'storage sample');
