import type { ClusterRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterTiesOf } from './store.js';
import type { Principal } from '../../auth/principal.js';
import type { Memberships } from '../../auth/memberships.js';

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
  const { links, direct, all } = await clusterTiesOf(
    db,
    user.id,
    userOrgs,
    user.systemRole === 'admin',
  );
  return visibleFrom({ orgClusters: links, clusters: direct }, all);
}

/** The same from a user's memberships and, for an administrator, every cluster's name. */
export function visibleFrom(
  m: Pick<Memberships, 'orgClusters' | 'clusters'>,
  everyCluster: string[],
): VisibleCluster[] {
  const byName = new Map<string, VisibleCluster>();
  const get = (name: string) => {
    let c = byName.get(name);
    if (!c) byName.set(name, (c = { name, role: 'user', orgs: [] }));
    return c;
  };
  for (const l of m.orgClusters) get(l.cluster).orgs.push(l.org);
  for (const d of m.clusters) get(d.name).role = d.role as ClusterRole;
  for (const name of everyCluster) get(name);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
