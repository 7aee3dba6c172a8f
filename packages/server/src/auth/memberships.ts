import type { Db } from '../db/client.js';
import { membershipRows } from './store.js';

/**
 * Everything that gives a user access, as stored: the rows the permission engine turns into
 * grants and the config route lists. One load per user and access epoch (access-cache.ts).
 */
export interface Memberships {
  /** Organizations and the role in each, by name. */
  orgs: { name: string; role: string }[];
  /**
   * Clusters linked to one of those organizations, and those of the user's projects: a project
   * token's service account belongs to its project alone and still works on its cluster.
   */
  orgClusters: { cluster: string; org: string }[];
  /** Direct cluster memberships. */
  clusters: { name: string; role: string }[];
  /** Projects and the role in each, by cluster, organization and name. */
  projects: { cluster: string; org: string; name: string; role: string }[];
  /** Shares: one action on one URI. */
  shares: { uri: string; action: string }[];
  /**
   * Set when the user is a project token's service account: the one project and role it may
   * act in, whatever else its rows say (permissions.ts keeps its grants inside them).
   */
  serviceAccount: ServiceAccountScope | null;
}

export interface ServiceAccountScope {
  cluster: string;
  org: string;
  project: string;
  role: string;
}

export const NO_MEMBERSHIPS: Memberships = {
  orgs: [],
  orgClusters: [],
  clusters: [],
  projects: [],
  shares: [],
  serviceAccount: null,
};

export async function membershipsOf(db: Db, userId: string): Promise<Memberships> {
  const { orgs, orgClusters, clusters, projectRoles, shares, tokens } = await membershipRows(
    db,
    userId,
  );
  const links = new Map(orgClusters.map((l) => [`${l.cluster}/${l.org}`, l]));
  for (const p of projectRoles)
    links.set(`${p.cluster}/${p.org}`, { cluster: p.cluster, org: p.org });
  return {
    orgs,
    orgClusters: [...links.values()],
    clusters,
    projects: projectRoles,
    shares,
    serviceAccount: tokens[0] ?? null,
  };
}
