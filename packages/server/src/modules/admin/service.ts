import type { z } from 'zod';
import type { ClusterRole, MemberRole, OrgBalancePatch } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { changeBalance, setBalance } from '../billing/store-ledger.js';
import { adminOrgs, orgExists } from '../orgs/store.js';
import { clusterNames, loadClusters, type ClusterCatalog } from '../clusters/store.js';
import { applyOrgQuota, type OrgQuotaChange } from '../quotas/service.js';
import {
  adminClusters,
  clusterByName,
  clusterMembersOf,
  clusterOrgLink,
  clusterOrgsOf,
  deleteClusterOrg,
  insertClusterOrg,
  setDiskPrice,
  setStorageVolumes,
} from './store.js';
import { projectsOnCluster } from '../projects/store.js';

export {
  adminClusters,
  adminOrgs,
  clusterByName,
  clusterNames,
  clusterOrgLink,
  clusterOrgsOf,
  loadClusters,
};

/** Links an organization to a cluster with its quota; 409 when it already is. */
export async function linkOrg(db: Db, cluster: string, org: string, quota: OrgQuotaChange) {
  await clusterByName(db, cluster);
  if (!(await orgExists(db, org))) throw invalid('org_name', `Organization ${org} not found`);
  await db.transaction(async (tx) => {
    if (!(await insertClusterOrg(tx, cluster, org))) {
      throw conflict(`Organization ${org} is already linked to ${cluster}`, 'org_name');
    }
    await applyOrgQuota(tx, cluster, org, quota);
  });
  return clusterOrgLink(db, cluster, org);
}

/** Unlinks an organization from a cluster; 404 when it is not linked. */
export async function unlinkOrg(db: Db, cluster: string, org: string) {
  await clusterOrgLink(db, cluster, org);
  await deleteClusterOrg(db, cluster, org);
}

/** A cluster's storage volumes with their prices; 404 for an unknown cluster. */
export const storageVolumes = async (db: Db, cluster: string) =>
  (await clusterByName(db, cluster)).storageVolumes.map((v) => ({
    name: v.name,
    credits_per_hour_per_gb: v.creditsPerHourPerGb,
  }));

/** Prices one storage volume of a cluster; 404 for an unknown cluster or volume. */
export async function priceStorageVolume(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  volume: string,
  credits: string,
) {
  const row = await clusterByName(db, cluster);
  if (!row.storageVolumes.some((v) => v.name === volume)) {
    throw notFound(`Storage volume ${volume} not found`);
  }
  await setStorageVolumes(
    db,
    catalog,
    cluster,
    row.storageVolumes.map((v) => (v.name === volume ? { ...v, creditsPerHourPerGb: credits } : v)),
  );
  return { name: volume, credits_per_hour_per_gb: credits };
}

/** A cluster's disk price; 404 for an unknown cluster. */
export const diskPrice = async (db: Db, cluster: string) => ({
  credits_per_day_per_gb: (await clusterByName(db, cluster)).diskCreditsPerDayPerGb,
});

/** Sets a cluster's disk price; 404 for an unknown cluster. */
export async function priceDisks(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  creditsPerDayPerGb: string,
) {
  await clusterByName(db, cluster);
  return { credits_per_day_per_gb: await setDiskPrice(db, catalog, cluster, creditsPerDayPerGb) };
}

/**
 * Sets an organization's credits, or adds to them (adding to unlimited credits keeps them
 * unlimited, as `changeBalance` does), recorded as the administrator's; 404 for an unknown
 * organization. Answers the organization as the admin API lists it.
 */
export async function setOrgBalance(
  db: Db,
  org: string,
  b: z.infer<typeof OrgBalancePatch>,
  userId: string,
) {
  if (!(await orgExists(db, org))) throw notFound(`Organization ${org} not found`);
  const who = { userId, reference: 'administrator' };
  await db.transaction((tx) =>
    b.credits !== undefined
      ? setBalance(tx, { org, credits: b.credits, ...who })
      : changeBalance(tx, { org, kind: 'grant', credits: String(b.additional_credits), ...who }),
  );
  return (await adminOrgs(db)).find((o) => o.name === org)!;
}

/** The projects on a cluster (of one organization, when named), as the admin API lists them. */
export async function adminProjects(db: Db, cluster: string, org?: string) {
  return (await projectsOnCluster(db, cluster, org)).map((p) => ({
    name: p.name,
    cluster_name: p.clusterName,
    org_name: p.orgName,
    is_default: p.isDefault,
    default_role: p.defaultRole as MemberRole,
    has_virtual_kube: false,
  }));
}

/** A cluster's direct members (only `userId`, when given), with their roles. */
export const clusterMembers = async (db: Db, cluster: string, userId?: string) =>
  (await clusterMembersOf(db, cluster, userId)).map((r) => ({ ...r, role: r.role as ClusterRole }));
