import { and, asc, count, eq } from 'drizzle-orm';
import type { ClusterOrgWire } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { Tx } from '../billing/metering.js';
import { clusterMembers, clusterOrgs, clusters, organizations, users } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { invalidateCatalog, type ClusterCatalog } from '../clusters/store.js';
import { decimal } from '../../db/numeric.js';
import { orgQuotasOf } from '../quotas/store.js';
import { quotaWire } from '../quotas/wire.js';

const NO_QUOTA = { total_running_jobs: null };

export async function clusterByName(db: Db, name: string) {
  const [row] = await db.select().from(clusters).where(eq(clusters.name, name));
  if (!row) throw notFound(`Cluster ${name} not found`);
  return row;
}

/** Clusters as the admin API lists them; defaults are not configurable yet, so they are fixed. */
export async function adminClusters(db: Db) {
  const [rows, links] = await Promise.all([
    db.select().from(clusters).orderBy(clusters.name),
    db
      .select({ cluster: clusterOrgs.clusterName, n: count() })
      .from(clusterOrgs)
      .groupBy(clusterOrgs.clusterName),
  ]);
  return rows.map((c) => ({
    name: c.name,
    location: c.location,
    default_credits: null,
    default_quota: NO_QUOTA,
    default_role: 'user',
    maintenance: false,
    orgs_count: links.find((l) => l.cluster === c.name)?.n ?? 0,
  }));
}

/** The organizations linked to a cluster, each with its jobs and resource quotas. */
export async function clusterOrgsOf(db: Db, cluster: string): Promise<ClusterOrgWire[]> {
  const [rows, quotas] = await Promise.all([
    db
      .select({
        org: clusterOrgs.orgName,
        quota: clusterOrgs.quotaTotalRunningJobs,
        credits: organizations.credits,
      })
      .from(clusterOrgs)
      .innerJoin(organizations, eq(organizations.name, clusterOrgs.orgName))
      .where(eq(clusterOrgs.clusterName, cluster))
      .orderBy(clusterOrgs.orgName),
    orgQuotasOf(db, cluster),
  ]);
  return rows.map((r) => ({
    org_name: r.org,
    balance: { credits: decimal(r.credits), spent_credits: '0' },
    quota: { total_running_jobs: r.quota, ...quotaWire(quotas.get(r.org)) },
    default_credits: null,
    default_quota: NO_QUOTA,
    default_role: 'user',
    storage_size: null,
    maintenance: false,
  }));
}

/** One organization's link to a cluster, as `clusterOrgsOf` answers it; 404 when not linked. */
export async function clusterOrgLink(db: Db, cluster: string, org: string) {
  const found = (await clusterOrgsOf(db, cluster)).find((o) => o.org_name === org);
  if (!found) throw notFound(`Organization ${org} is not linked to ${cluster} cluster`);
  return found;
}

/** Links an organization to a cluster; false when it already was. */
export async function insertClusterOrg(tx: Tx, cluster: string, org: string) {
  const inserted = await tx
    .insert(clusterOrgs)
    .values({ clusterName: cluster, orgName: org })
    .onConflictDoNothing()
    .returning();
  return inserted.length > 0;
}

export const deleteClusterOrg = (db: Db, cluster: string, org: string) =>
  db
    .delete(clusterOrgs)
    .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));

type ClusterRow = typeof clusters.$inferSelect;

/** Sets a cluster's storage volumes; the cached catalog drops its copy. */
export async function setStorageVolumes(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  volumes: ClusterRow['storageVolumes'],
) {
  await db.update(clusters).set({ storageVolumes: volumes }).where(eq(clusters.name, cluster));
  invalidateCatalog(catalog);
}

/** Sets a cluster's disk price; answers it as stored. The cached catalog drops its copy. */
export async function setDiskPrice(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  creditsPerDayPerGb: string,
) {
  const [row] = await db
    .update(clusters)
    .set({ diskCreditsPerDayPerGb: creditsPerDayPerGb })
    .where(eq(clusters.name, cluster))
    .returning({ price: clusters.diskCreditsPerDayPerGb });
  invalidateCatalog(catalog);
  return row!.price;
}

/** A cluster's direct members (only `userId`, when given), by user name. */
export const clusterMembersOf = (db: Db, cluster: string, userId?: string) =>
  db
    .select({
      username: users.username,
      name: users.name,
      email: users.email,
      createdAt: users.createdAt,
      role: clusterMembers.role,
    })
    .from(clusterMembers)
    .innerJoin(users, eq(users.id, clusterMembers.userId))
    .where(
      and(
        eq(clusterMembers.clusterName, cluster),
        userId === undefined ? undefined : eq(clusterMembers.userId, userId),
      ),
    )
    .orderBy(asc(users.username));
