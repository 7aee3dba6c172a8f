import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusterOrgs, clusters, nodePools, presets } from '../../db/schema.js';

export type ClusterRow = typeof clusters.$inferSelect;
export type NodePoolRow = typeof nodePools.$inferSelect;
export type PresetRow = typeof presets.$inferSelect;

/** Clusters with their pools, presets and linked organizations, in one round of queries. */
export async function loadClusters(db: Db, names: string[]) {
  if (names.length === 0) return [];
  const [cs, pools, ps, links] = await Promise.all([
    db.select().from(clusters).where(inArray(clusters.name, names)),
    db.select().from(nodePools).where(inArray(nodePools.clusterName, names)),
    db.select().from(presets).where(inArray(presets.clusterName, names)),
    db.select().from(clusterOrgs).where(inArray(clusterOrgs.clusterName, names)),
  ]);
  return cs
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => ({
      cluster: c,
      pools: pools.filter((p) => p.clusterName === c.name),
      presets: ps
        .filter((p) => p.clusterName === c.name)
        .sort((a, b) => a.cpu - b.cpu || a.memory - b.memory),
      orgs: links.filter((l) => l.clusterName === c.name).map((l) => l.orgName),
    }));
}
export type LoadedCluster = Awaited<ReturnType<typeof loadClusters>>[number];
