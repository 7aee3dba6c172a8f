import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusterMembers, clusterOrgs, clusters, nodePools, presets } from '../../db/schema.js';

export type ClusterRow = typeof clusters.$inferSelect;
export type NodePoolRow = typeof nodePools.$inferSelect;
export type PresetRow = typeof presets.$inferSelect;
export type PresetInsert = typeof presets.$inferInsert;

interface CatalogEntry {
  cluster: ClusterRow;
  pools: NodePoolRow[];
  presets: PresetRow[];
}

/**
 * Clusters with their node pools and presets change only by an administrator's hand, yet every
 * signed-in `GET /config` reads them: each server keeps them for a few seconds in its own
 * catalog (server.ts makes it with the context, so servers in one process never share one). A
 * change made through the admin stores calls `invalidateCatalog`; other replicas see it when
 * their copy expires.
 */
export const CATALOG_TTL_MS = 5_000;
export interface ClusterCatalog {
  readonly db: Db;
  held?: { at: number; entries: Promise<Map<string, CatalogEntry>> };
}

/** An empty catalog of the clusters in `db`, read on first use. */
export const clusterCatalog = (db: Db): ClusterCatalog => ({ db });

async function readCatalog(db: Db): Promise<Map<string, CatalogEntry>> {
  const [cs, pools, ps] = await Promise.all([
    db.select().from(clusters),
    db.select().from(nodePools),
    db.select().from(presets),
  ]);
  return new Map(
    cs.map((c) => [
      c.name,
      {
        cluster: c,
        pools: pools.filter((p) => p.clusterName === c.name),
        presets: ps
          .filter((p) => p.clusterName === c.name)
          .sort((a, b) => a.cpu - b.cpu || a.memory - b.memory),
      },
    ]),
  );
}

function entriesOf(catalog: ClusterCatalog, now = Date.now()) {
  let held = catalog.held;
  if (!held || now - held.at > CATALOG_TTL_MS) {
    held = { at: now, entries: readCatalog(catalog.db) };
    // A failed read is not kept.
    held.entries.catch(() => (catalog.held = undefined));
    catalog.held = held;
  }
  return held.entries;
}

export const invalidateCatalog = (catalog: ClusterCatalog) => void (catalog.held = undefined);

/**
 * Clusters with their pools, presets and linked organizations: those of `links` when the caller
 * knows them already (the access snapshot has them), else read now.
 */
export async function loadClusters(
  catalog: ClusterCatalog,
  names: string[],
  links?: { cluster: string; org: string }[],
) {
  if (names.length === 0) return [];
  const [entries, known] = await Promise.all([
    entriesOf(catalog),
    links ??
      catalog.db
        .select({ cluster: clusterOrgs.clusterName, org: clusterOrgs.orgName })
        .from(clusterOrgs)
        .where(inArray(clusterOrgs.clusterName, names)),
  ]);
  return [...names]
    .sort((a, b) => a.localeCompare(b))
    .flatMap((name) => {
      const e = entries.get(name);
      if (!e) return [];
      const orgs = known.filter((l) => l.cluster === name).map((l) => l.org);
      return [{ ...e, orgs }];
    });
}
export type LoadedCluster = Awaited<ReturnType<typeof loadClusters>>[number];

/** Every preset's node pools, keyed `cluster/preset`: one read for a whole scheduling pass. */
export async function presetPoolMap(db: Db): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ cluster: presets.clusterName, name: presets.name, pools: presets.resourcePoolNames })
    .from(presets);
  return new Map(rows.map((r) => [`${r.cluster}/${r.name}`, r.pools ?? []]));
}

/** The node pools a job's preset names (a cluster runtime schedules it onto one of them). */
export async function presetPools(db: Db, cluster: string, preset: string | null) {
  if (!preset) return [];
  const [row] = await db
    .select({ pools: presets.resourcePoolNames })
    .from(presets)
    .where(and(eq(presets.clusterName, cluster), eq(presets.name, preset)));
  return row?.pools ?? [];
}

/**
 * What a user's cluster list is made of: the clusters linked to their organizations, the ones
 * they are a member of, and, for a system administrator (`every`), every cluster's name.
 */
export async function clusterTiesOf(db: Db, userId: string, userOrgs: string[], every: boolean) {
  const [links, direct, all] = await Promise.all([
    userOrgs.length
      ? db
          .select({ cluster: clusterOrgs.clusterName, org: clusterOrgs.orgName })
          .from(clusterOrgs)
          .where(inArray(clusterOrgs.orgName, userOrgs))
      : [],
    db
      .select({ name: clusterMembers.clusterName, role: clusterMembers.role })
      .from(clusterMembers)
      .where(eq(clusterMembers.userId, userId)),
    every ? clusterNames(db) : [],
  ]);
  return { links, direct, all };
}

export const clusterNames = async (db: Db) =>
  (await db.select({ name: clusters.name }).from(clusters)).map((c) => c.name);

/** Every organization's link to a cluster. */
export const clusterLinks = (db: Db) =>
  db.select({ cluster: clusterOrgs.clusterName, org: clusterOrgs.orgName }).from(clusterOrgs);

/**
 * Adds a cluster with its node pools and presets, all or nothing. The first start does it before
 * the server makes its catalog, so there is no copy to drop.
 */
export async function insertCluster(
  db: Db,
  cluster: typeof clusters.$inferInsert,
  pools: (typeof nodePools.$inferInsert)[],
  presetRows: PresetInsert[],
) {
  await db.transaction(async (tx) => {
    await tx.insert(clusters).values(cluster);
    if (pools.length) await tx.insert(nodePools).values(pools);
    if (presetRows.length) await tx.insert(presets).values(presetRows);
  });
}
