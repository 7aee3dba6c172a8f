import { and, asc, eq, gte, lt, sql, type AnyColumn } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusters, disks, projects, usageRecords } from '../../db/schema.js';
import { poolSamples } from './tables.js';

// What the samplers read and write: storage and disks to charge, node pools over time.

/** The URIs of the resources of `category` charged for the period starting at `from`. */
export async function chargedUris(db: Db, category: string, from: Date) {
  const charged = await db
    .select({ uri: usageRecords.resourceUri })
    .from(usageRecords)
    .where(and(eq(usageRecords.category, category), eq(usageRecords.startedAt, from)));
  return new Set(charged.map((r) => r.uri));
}

/** Ready disks with their cluster's price per GB and day. */
export const readyDisksPriced = (db: Db) =>
  db
    .select({ disk: disks, price: clusters.diskCreditsPerDayPerGb })
    .from(disks)
    .innerJoin(clusters, eq(clusters.name, disks.clusterName))
    .where(eq(disks.status, 'Ready'));

export type Volume = (typeof clusters.$inferSelect)['storageVolumes'][number];

/** Each cluster's storage volumes, by cluster name. */
export async function volumesByCluster(db: Db): Promise<Map<string, Volume[]>> {
  const rows = await db
    .select({ name: clusters.name, volumes: clusters.storageVolumes })
    .from(clusters);
  return new Map(rows.map((c) => [c.name, c.volumes]));
}

/** Every project's place. */
export const allProjectPlaces = (db: Db) =>
  db
    .select({ cluster: projects.clusterName, org: projects.orgName, project: projects.name })
    .from(projects);

/** Records node pool samples; a sample already there stays. Answers how many were written. */
export async function insertPoolSamples(db: Db, rows: (typeof poolSamples.$inferInsert)[]) {
  const written = await db
    .insert(poolSamples)
    .values(rows)
    .onConflictDoNothing()
    .returning({ pool: poolSamples.poolName });
  return written.length;
}

/** A cluster's pool samples in [start, end), averaged per step of `stepSeconds` from the epoch. */
export function poolSampleRows(
  db: Db,
  cluster: string,
  start: Date,
  end: Date,
  stepSeconds: number,
) {
  const s = poolSamples;
  // Inlined (a number computed by the caller, never input): a bound parameter would differ
  // between the select, the group by and the order by, and PostgreSQL would not see them as one
  // expression.
  const every = sql.raw(`interval '${stepSeconds} seconds'`);
  const bin = sql`date_bin(${every}, ${s.sampledAt}, timestamptz '1970-01-01 00:00:00+00')`;
  const avg = (c: AnyColumn) => sql<number>`avg(${c})::float8`;
  return db
    .select({
      pool: s.poolName,
      at: sql<string>`to_char(${bin} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      cpu_used: avg(s.cpuUsed),
      cpu_total: avg(s.cpuTotal),
      memory_used: avg(s.memoryUsed),
      memory_total: avg(s.memoryTotal),
      gpu_used: avg(s.gpuUsed),
      gpu_total: avg(s.gpuTotal),
    })
    .from(s)
    .where(and(eq(s.clusterName, cluster), gte(s.sampledAt, start), lt(s.sampledAt, end)))
    .groupBy(s.poolName, bin)
    .orderBy(asc(s.poolName), asc(bin));
}
