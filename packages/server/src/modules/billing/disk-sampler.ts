import { diskUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { readyDisksPriced } from './store-samples.js';
import { accrue } from './metering.js';
import { runEvery, type LoopHost } from './periodic.js';
import { samplePeriod, STORAGE_CHECK_MS, STORAGE_PERIOD_MS } from './storage-sampler.js';

const BYTES_PER_GB = 1000 ** 3;
const PERIODS_PER_DAY = 86_400_000 / STORAGE_PERIOD_MS;

/** What a disk of `bytes` costs a day at a cluster's price (credits per GB and day). */
export const diskCreditsPerDay = (bytes: number, creditsPerDayPerGb: string | number) =>
  (bytes / BYTES_PER_GB) * Number(creditsPerDayPerGb);

/**
 * Charges the period (an hour) that holds `now` for every ready disk not charged for it yet: the
 * disk's size in GB × its cluster's price per GB-day ÷ 24, one usage row per disk and period
 * (category disks, named by the disk's name, or its id when it has none), against the disk's
 * owner. A disk is charged for the size it was made with, used or not, as volumes are billed. The
 * row's key (the disk's URI and the period) makes a second replica's sample, or a sample after a
 * restart, charge nothing; clusters whose disks are free write no rows. Returns how many disks
 * were charged.
 */
export async function sampleDisks(db: Db, now = new Date()) {
  const { from, until, done } = await samplePeriod(db, 'disks', now);
  const priced = await readyDisksPriced(db);
  let charged = 0;
  for (const { disk: d, price } of priced) {
    const uri = diskUri(d.clusterName, d.orgName, d.projectName, d.id);
    if (done.has(uri) || Number(price) === 0) continue;
    const added = await db.transaction((tx) =>
      accrue(tx, {
        category: 'disks',
        cluster: d.clusterName,
        org: d.orgName,
        project: d.projectName,
        userId: d.ownerId,
        resourceUri: uri,
        resourceId: d.name ?? d.id,
        from,
        until,
        credits: diskCreditsPerDay(d.storage, price) / PERIODS_PER_DAY,
      }),
    );
    if (added) charged += 1;
  }
  return charged;
}

/** Samples disks just after the start and as often as storage, one sample at a time. */
export const startDiskSampler = (db: Db, host: LoopHost, everyMs = STORAGE_CHECK_MS) =>
  runEvery(() => sampleDisks(db), everyMs, host, 'disk sample');
