import {
  ADMIN_TEXTS,
  BOUND_TEXTS,
  BorrowingLimits,
  INT4_MAX,
  QUOTA_RESOURCE_LABELS,
  QUOTA_RESOURCES,
  QUOTA_TEXTS,
  ResourceLimits,
  formatAmount,
  type OrgQuotaInput,
  type OrgQuotaView,
  type ProjectQuota,
  type ProjectQuotaView,
  type ResourceAmounts,
  type ResourceDeltas,
} from '@orrery/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { invalid, notFound } from '../../http/errors.js';
import {
  heldByProject,
  lockOrgLink,
  orgLink,
  orgQuotasOf,
  projectQuotasOf,
  saveOrgQuota,
  saveProjectQuota,
  type Limits,
} from './store.js';
import { NO_LIMITS, quotaWire, useOf } from './wire.js';

/** CPU is compared with a tolerance: 0.1 + 0.2 is not 0.3 in floats. */
const EPSILON = 1e-9;

type Sent = z.infer<typeof ResourceLimits> | null | undefined;
type Deltas = z.infer<typeof ResourceDeltas>;

/**
 * Amounts after a change as sent. `replace` (a project's PUT): what is absent is unlimited.
 * Otherwise (the organization's quota, as Apolo's clients send it) what is absent stays; null
 * clears one resource, or the whole set.
 */
function applied(current: ResourceAmounts, sent: Sent, replace: boolean): ResourceAmounts {
  if (sent === null) return {};
  const out: ResourceAmounts = replace ? {} : { ...current };
  for (const r of QUOTA_RESOURCES) {
    const v = sent?.[r];
    if (v === null) delete out[r];
    else if (v !== undefined) out[r] = v;
  }
  return out;
}

/** Amounts after deltas: an unlimited amount stays unlimited, as Apolo's jobs quota does. */
function added(current: ResourceAmounts, deltas: Omit<Deltas, 'borrowing_limit'> | undefined) {
  const out: ResourceAmounts = { ...current };
  for (const r of QUOTA_RESOURCES) {
    const d = deltas?.[r];
    if (d !== undefined && out[r] !== undefined) out[r] = out[r] + d;
  }
  return out;
}

/** The fields' own rules (`ResourceLimits`, `BorrowingLimits`), said at `prefix`, for a result
 * reached by deltas. */
function checkBounds(a: ResourceAmounts, schema: typeof ResourceLimits, prefix: string) {
  const issue = schema.safeParse(a).error?.issues[0];
  if (issue) throw invalid(`${prefix}${issue.path.join('.')}`, issue.message);
}

/** A borrowing limit says how far beyond a nominal quota: with none, use is unlimited anyway. */
function checkBorrowing(l: Limits, prefix: string) {
  for (const r of QUOTA_RESOURCES) {
    if (l.borrowingLimit[r] !== undefined && l.nominal[r] === undefined)
      throw invalid(
        `${prefix}borrowing_limit.${r}`,
        QUOTA_TEXTS.borrowingWithoutQuota(QUOTA_RESOURCE_LABELS[r]),
      );
  }
}

/** The projects' nominal quotas of an organization may not add up to more than its own. */
function checkSplit(
  org: string,
  orgNominal: ResourceAmounts,
  projects: ResourceAmounts[],
  path: string,
) {
  for (const r of QUOTA_RESOURCES) {
    const limit = orgNominal[r];
    if (limit === undefined) continue;
    const total = projects.reduce((s, p) => s + (p[r] ?? 0), 0);
    if (total > limit + EPSILON)
      throw invalid(
        `${path}${r}`,
        QUOTA_TEXTS.projectsAbove(
          QUOTA_RESOURCE_LABELS[r],
          org,
          formatAmount(r, total),
          formatAmount(r, limit),
        ),
      );
  }
}

/** A change of the organization's quota on a cluster: a new quota, or deltas. */
export type OrgQuotaChange =
  { quota: OrgQuotaInput } | { additional_quota: Deltas & { total_running_jobs?: number } };

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Applies a change of an organization's quota on a cluster (`PUT .../orgs/{org}` and `PATCH
 * .../orgs/{org}/quota`), refused whole when a rule fails. Its link is locked meanwhile, so that
 * a project's quota set at the same moment is checked against what this one leaves.
 */
export const changeOrgQuota = (db: Db, cluster: string, org: string, change: OrgQuotaChange) =>
  db.transaction((tx) => applyOrgQuota(tx, cluster, org, change));

/** `changeOrgQuota` inside a transaction (linking an organization sets its quota with it). */
export async function applyOrgQuota(tx: Tx, cluster: string, org: string, change: OrgQuotaChange) {
  const link = await lockOrgLink(tx, cluster, org);
  if (!link) throw notFound(`Organization ${org} is not linked to ${cluster} cluster`);
  const now = (await orgQuotasOf(tx, cluster, org)).get(org) ?? NO_LIMITS;
  let jobs: number | null;
  let next: Limits;
  let path: string;
  if ('quota' in change) {
    const q = change.quota;
    jobs = q.total_running_jobs;
    next = {
      nominal: applied(now.nominal, q, false),
      borrowingLimit: applied(now.borrowingLimit, q.borrowing_limit, false),
    };
    path = 'quota.';
  } else {
    const d = change.additional_quota;
    path = 'additional_quota.';
    jobs = link.quotaTotalRunningJobs;
    if (jobs !== null && d.total_running_jobs !== undefined) {
      jobs += d.total_running_jobs;
      if (jobs < 0) throw invalid(`${path}total_running_jobs`, ADMIN_TEXTS.jobsInvalid);
      if (jobs > INT4_MAX) throw invalid(`${path}total_running_jobs`, BOUND_TEXTS.intMax);
    }
    next = {
      nominal: added(now.nominal, d),
      borrowingLimit: added(now.borrowingLimit, d.borrowing_limit),
    };
    checkBounds(next.nominal, ResourceLimits, path);
    checkBounds(next.borrowingLimit, BorrowingLimits, `${path}borrowing_limit.`);
  }
  checkBorrowing(next, path);
  const projects = await projectQuotasOf(tx, cluster, org);
  checkSplit(
    org,
    next.nominal,
    projects.map((p) => p.nominal),
    path,
  );
  await saveOrgQuota(tx, cluster, org, { ...next, jobs });
}

/** The project of a cluster and organization, or a 404 that says which. */
async function projectIn(db: Pick<Db, 'select'>, cluster: string, org: string, project: string) {
  const found = (await projectQuotasOf(db, cluster, org)).find((p) => p.project === project);
  if (!found) throw notFound(`Project ${project} not found`);
  return found;
}

/** Replaces a project's quota, checked against its organization's on the project's cluster. */
export async function setProjectQuota(
  db: Db,
  place: { cluster: string; org: string; project: string },
  body: ProjectQuota,
) {
  const next: Limits = {
    nominal: applied({}, body, true),
    borrowingLimit: applied({}, body.borrowing_limit, true),
  };
  checkBorrowing(next, '');
  await db.transaction(async (tx) => {
    // Locked, so that two managers splitting the organization at once cannot both pass.
    await lockOrgLink(tx, place.cluster, place.org);
    const all = await projectQuotasOf(tx, place.cluster, place.org);
    const target = all.find((p) => p.project === place.project);
    if (!target) throw notFound(`Project ${place.project} not found`);
    const org = (await orgQuotasOf(tx, place.cluster, place.org)).get(place.org) ?? NO_LIMITS;
    checkSplit(
      place.org,
      org.nominal,
      all.map((p) => (p.id === target.id ? next.nominal : p.nominal)),
      '',
    );
    await saveProjectQuota(tx, target.id, next);
  });
}

/** A project's quota and what its running jobs hold now. */
export async function projectQuotaView(
  db: Db,
  place: { cluster: string; org: string; project: string },
): Promise<ProjectQuotaView> {
  const [p, held] = await Promise.all([
    projectIn(db, place.cluster, place.org, place.project),
    heldByProject(db, place.cluster, place.org),
  ]);
  return {
    cluster_name: place.cluster,
    org_name: place.org,
    project_name: p.project,
    ...quotaWire(p),
    used: useOf(held.filter((h) => h.project === p.project)),
  };
}

/**
 * The organization's quota on a cluster, what its running jobs hold, and the quotas and use of
 * the projects `sees` lets the caller see.
 */
export async function orgQuotaView(
  db: Db,
  cluster: string,
  org: string,
  sees: (project: string) => boolean,
): Promise<OrgQuotaView> {
  const [link, limits, projects, held] = await Promise.all([
    orgLink(db, cluster, org),
    orgQuotasOf(db, cluster, org),
    projectQuotasOf(db, cluster, org),
    heldByProject(db, cluster, org),
  ]);
  if (!link) throw notFound(`Organization ${org} is not linked to ${cluster} cluster`);
  return {
    cluster_name: cluster,
    org_name: org,
    total_running_jobs: link.quotaTotalRunningJobs,
    ...quotaWire(limits.get(org)),
    used: useOf(held),
    projects: projects
      .filter((p) => sees(p.project))
      .map((p) => ({
        cluster_name: cluster,
        org_name: org,
        project_name: p.project,
        ...quotaWire(p),
        used: useOf(held.filter((h) => h.project === p.project)),
      })),
  };
}
