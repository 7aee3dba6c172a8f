import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { storageUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { BlobBackend } from '../../blob/backend.js';
import { clusters, projects, usageRecords } from '../../db/schema.js';
import { accrue } from './metering.js';

/** Each project's files are charged once per period, at the size measured in it. */
export const STORAGE_PERIOD_MS = 3_600_000;
/** How often the sampler looks for projects not yet charged for the current period. */
export const STORAGE_CHECK_MS = 60_000;
const BYTES_PER_GB = 1000 ** 3;

type Volume = (typeof clusters.$inferSelect)['storageVolumes'][number];

/** The volume holding a project's files, as Apolo matches it: /org/project, /org, the default. */
export function volumeOf(volumes: Volume[], org: string, project: string): Volume | undefined {
  return (
    volumes.find((v) => v.path === `/${org}/${project}`) ??
    volumes.find((v) => v.path === `/${org}`) ??
    volumes.find((v) => !v.path)
  );
}

/**
 * Charges the period that holds `now` for every project not charged for it yet: GB × hours of
 * the period × its volume's price, one usage row per project and period (category storage,
 * named by the volume). The row's key makes a second replica's sample of the same period, or a
 * sample after a restart, charge nothing. Returns how many projects were charged.
 */
export async function sampleStorage(db: Db, files: BlobBackend, now = new Date()) {
  const from = new Date(Math.floor(now.getTime() / STORAGE_PERIOD_MS) * STORAGE_PERIOD_MS);
  const until = new Date(from.getTime() + STORAGE_PERIOD_MS);
  const done = new Set(
    (
      await db
        .select({ uri: usageRecords.resourceUri })
        .from(usageRecords)
        .where(and(eq(usageRecords.category, 'storage'), eq(usageRecords.startedAt, from)))
    ).map((r) => r.uri),
  );
  const volumes = new Map(
    (await db.select({ name: clusters.name, volumes: clusters.storageVolumes }).from(clusters)).map(
      (c) => [c.name, c.volumes],
    ),
  );
  const all = await db
    .select({ cluster: projects.clusterName, org: projects.orgName, project: projects.name })
    .from(projects);
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

/**
 * Runs `sample` at start and every `everyMs`, one at a time (storage and disks are both sampled
 * each STORAGE_CHECK_MS). Returns a stop that waits for the sample under way.
 */
export function startSampling(
  sample: () => Promise<unknown>,
  log: FastifyBaseLogger,
  everyMs = STORAGE_CHECK_MS,
) {
  let running: Promise<unknown> = Promise.resolve();
  const next = () => {
    running = running
      .then(sample)
      .catch((e: unknown) => log.error({ err: e }, 'storage sample failed'));
  };
  next();
  const timer = setInterval(next, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
