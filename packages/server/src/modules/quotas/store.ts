import { and, count, eq, notInArray, sql } from 'drizzle-orm';
import { FINAL_JOB_STATUSES, QUOTA_RESOURCES, type ResourceAmounts } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterOrgs, jobs, projects } from '../../db/schema.js';
import type { OrgPolicy } from '../scheduler/decide.js';
import type { Quota } from '../scheduler/weights.js';
import { orgQuotas, projectQuotas } from './tables.js';

type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete'>;

/** What the scheduler weighs a cluster's organizations and projects by (docs/scheduling.md). */
export interface ClusterQuotas {
  orgs: Map<string, OrgPolicy>;
  /** Keyed `org/project`. */
  projects: Map<string, Quota>;
}

/** A stored nominal share and borrowing limit; an absent resource is unlimited. */
export interface Limits {
  nominal: ResourceAmounts;
  borrowingLimit: ResourceAmounts;
}

const isSet = (a: ResourceAmounts) => QUOTA_RESOURCES.some((r) => a[r] !== undefined);

/** The scheduler's form of a stored quota: only what limits something is named. */
function quotaOf(l: Limits): Quota {
  const q: Quota = {};
  if (isSet(l.nominal)) q.nominal = l.nominal;
  if (isSet(l.borrowingLimit)) q.borrowingLimit = l.borrowingLimit;
  return q;
}

/** Every quota set on the cluster: its organizations' and their projects'. */
export async function clusterQuotas(db: Db, cluster: string): Promise<ClusterQuotas> {
  const [links, orgRows, projectRows] = await Promise.all([
    db
      .select({ org: clusterOrgs.orgName, jobs: clusterOrgs.quotaTotalRunningJobs })
      .from(clusterOrgs)
      .where(eq(clusterOrgs.clusterName, cluster)),
    orgQuotasOf(db, cluster),
    projectQuotasOf(db, cluster),
  ]);
  const orgs = new Map<string, OrgPolicy>();
  for (const r of links) if (r.jobs !== null) orgs.set(r.org, { maxRunningJobs: r.jobs });
  for (const [org, limits] of orgRows) {
    const q = quotaOf(limits);
    if (q.nominal || q.borrowingLimit) orgs.set(org, { ...orgs.get(org), ...q });
  }
  const projectMap = new Map<string, Quota>();
  for (const p of projectRows) {
    const q = quotaOf(p);
    if (q.nominal || q.borrowingLimit) projectMap.set(`${p.org}/${p.project}`, q);
  }
  return { orgs, projects: projectMap };
}

/** The organizations' quotas on a cluster, by organization. */
export async function orgQuotasOf(db: Pick<Db, 'select'>, cluster: string, org?: string) {
  const rows = await db
    .select()
    .from(orgQuotas)
    .where(and(eq(orgQuotas.clusterName, cluster), org ? eq(orgQuotas.orgName, org) : undefined));
  return new Map<string, Limits>(
    rows.map((r) => [r.orgName, { nominal: r.nominal, borrowingLimit: r.borrowingLimit }]),
  );
}

/** The projects of a cluster (of one organization, if named) with their quotas, if any. */
export async function projectQuotasOf(db: Pick<Db, 'select'>, cluster: string, org?: string) {
  const rows = await db
    .select({
      id: projects.id,
      org: projects.orgName,
      project: projects.name,
      nominal: projectQuotas.nominal,
      borrowingLimit: projectQuotas.borrowingLimit,
    })
    .from(projects)
    .leftJoin(projectQuotas, eq(projectQuotas.projectId, projects.id))
    .where(and(eq(projects.clusterName, cluster), org ? eq(projects.orgName, org) : undefined))
    .orderBy(projects.orgName, projects.name);
  return rows.map((r) => ({
    ...r,
    nominal: r.nominal ?? {},
    borrowingLimit: r.borrowingLimit ?? {},
  }));
}

const resource = (name: string) =>
  sql<number>`coalesce(sum((${jobs.container}->'resources'->>${name})::float8), 0)`.mapWith(Number);

/**
 * What the jobs that hold resources now (started on the runtime and not ended or suspended)
 * hold, by project: their containers' resources, summed in the database.
 */
export async function heldByProject(db: Pick<Db, 'select'>, cluster: string, org?: string) {
  const rows = await db
    .select({
      org: jobs.orgName,
      project: jobs.projectName,
      jobs: count(),
      cpu: resource('cpu'),
      memory: resource('memory'),
      nvidia_gpu: resource('nvidia_gpu'),
      amd_gpu: resource('amd_gpu'),
      intel_gpu: resource('intel_gpu'),
    })
    .from(jobs)
    .where(
      and(
        eq(jobs.clusterName, cluster),
        org ? eq(jobs.orgName, org) : undefined,
        eq(jobs.materialized, true),
        notInArray(jobs.status, [...FINAL_JOB_STATUSES, 'suspended']),
      ),
    )
    .groupBy(jobs.orgName, jobs.projectName);
  return rows.map((r) => ({ ...r, jobs: Number(r.jobs) }));
}

const linkOf = (db: Pick<Db, 'select'>, cluster: string, org: string) =>
  db
    .select()
    .from(clusterOrgs)
    .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));

/** The organization's link to the cluster (its jobs quota); null if it is not linked. */
export async function orgLink(db: Pick<Db, 'select'>, cluster: string, org: string) {
  const [link] = await linkOf(db, cluster, org);
  return link ?? null;
}

/** The organization's link to the cluster, locked until the transaction ends; null if none. */
export async function lockOrgLink(tx: Tx, cluster: string, org: string) {
  const [link] = await linkOf(tx, cluster, org).for('update');
  return link ?? null;
}

export async function saveOrgQuota(
  tx: Tx,
  cluster: string,
  org: string,
  limits: Limits & { jobs: number | null },
) {
  await tx
    .update(clusterOrgs)
    .set({ quotaTotalRunningJobs: limits.jobs })
    .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));
  const values = { nominal: limits.nominal, borrowingLimit: limits.borrowingLimit };
  await tx
    .insert(orgQuotas)
    .values({ clusterName: cluster, orgName: org, ...values })
    .onConflictDoUpdate({
      target: [orgQuotas.clusterName, orgQuotas.orgName],
      set: { ...values, updatedAt: new Date() },
    });
}

export async function saveProjectQuota(tx: Tx, projectId: string, limits: Limits) {
  const values = { nominal: limits.nominal, borrowingLimit: limits.borrowingLimit };
  await tx
    .insert(projectQuotas)
    .values({ projectId, ...values })
    .onConflictDoUpdate({
      target: projectQuotas.projectId,
      set: { ...values, updatedAt: new Date() },
    });
}
