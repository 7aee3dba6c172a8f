import { eq, inArray } from 'drizzle-orm';
import type { ClusterRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterMembers, clusterOrgs, clusters } from '../../db/schema.js';
import type { Principal } from '../../auth/principal.js';

export interface VisibleCluster {
  name: string;
  role: ClusterRole;
  /** The caller's organizations linked to this cluster. */
  orgs: string[];
}

/**
 * Clusters a user may work on: those linked to one of their organizations, and those they are a
 * member of directly. A system admin sees every cluster.
 */
export async function visibleClusters(
  db: Db,
  user: Principal,
  userOrgs: string[],
): Promise<VisibleCluster[]> {
  const [links, direct, all] = await Promise.all([
    userOrgs.length
      ? db.select().from(clusterOrgs).where(inArray(clusterOrgs.orgName, userOrgs))
      : [],
    db.select().from(clusterMembers).where(eq(clusterMembers.userId, user.id)),
    user.systemRole === 'admin' ? db.select({ name: clusters.name }).from(clusters) : [],
  ]);
  const byName = new Map<string, VisibleCluster>();
  const get = (name: string) => {
    let c = byName.get(name);
    if (!c) byName.set(name, (c = { name, role: 'user', orgs: [] }));
    return c;
  };
  for (const l of links) get(l.clusterName).orgs.push(l.orgName);
  for (const d of direct) get(d.clusterName).role = d.role as ClusterRole;
  for (const a of all) get(a.name);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
