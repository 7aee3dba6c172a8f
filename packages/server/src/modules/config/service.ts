import type { Memberships } from '../../auth/memberships.js';
import { visibleFrom } from '../clusters/visible.js';
import { loadClusters, type ClusterCatalog } from '../clusters/store.js';

/**
 * The clusters a caller's config lists, with their node pools and presets: those their
 * memberships reach, or, for an administrator (`every` given), every cluster. Only the caller's
 * own organizations are listed on each, unless the caller is an administrator.
 */
export async function configClusters(
  catalog: ClusterCatalog,
  m: Memberships,
  every: { names: string[]; links: { cluster: string; org: string }[] } | null,
) {
  const visible = visibleFrom(m, every?.names ?? []);
  return loadClusters(
    catalog,
    visible.map((c) => c.name),
    every?.links ?? m.orgClusters,
  );
}
