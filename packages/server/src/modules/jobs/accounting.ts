import { and, count, eq, notInArray, sql } from 'drizzle-orm';
import { FINAL_JOB_STATUSES, jobUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import {
  clusterOrgs,
  jobs,
  orgMembers,
  organizations,
  usageRecords,
  users,
} from '../../db/schema.js';
import type { JobRow } from './store.js';
import { changeBalance } from '../billing/ledger.js';

/**
 * Credits and quotas (DESIGN.md: the jobs service owns them; billing reads `usage_records`).
 * Balances are decimal strings in the database; null means unlimited.
 */
export interface CreditsLeft {
  ok: boolean;
  /** Whose credits ran out, for the message: the organization or the user in it. */
  who?: string;
}

export async function creditsLeft(
  db: Db,
  org: string,
  userId: string | null,
): Promise<CreditsLeft> {
  const [o] = await db
    .select({ credits: organizations.credits })
    .from(organizations)
    .where(eq(organizations.name, org));
  if (o && o.credits !== null && Number(o.credits) <= 0) {
    return { ok: false, who: `organization ${org}` };
  }
  if (userId) {
    const [m] = await db
      .select({ credits: orgMembers.credits, username: users.username })
      .from(orgMembers)
      .innerJoin(users, eq(users.id, orgMembers.userId))
      .where(and(eq(orgMembers.orgName, org), eq(orgMembers.userId, userId)));
    if (m && m.credits !== null && Number(m.credits) <= 0) {
      return { ok: false, who: `user ${m.username} in organization ${org}` };
    }
  }
  return { ok: true };
}

/** The organization's `totalRunningJobs` quota on a cluster and how much of it is taken. */
export async function jobsQuota(db: Db, cluster: string, org: string, except?: string) {
  const [link] = await db
    .select({ quota: clusterOrgs.quotaTotalRunningJobs })
    .from(clusterOrgs)
    .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));
  const quota = link?.quota ?? null;
  if (quota === null) return { exhausted: false, quota: null, used: 0 };
  const [row] = await db
    .select({ used: count() })
    .from(jobs)
    .where(
      and(
        eq(jobs.clusterName, cluster),
        eq(jobs.orgName, org),
        eq(jobs.materialized, true),
        notInArray(jobs.status, [...FINAL_JOB_STATUSES]),
        except ? sql`${jobs.id} <> ${except}` : undefined,
      ),
    );
  const used = Number(row?.used ?? 0);
  return { exhausted: used >= quota, quota, used };
}

/** Credits, rounded to the column's four decimals, as a decimal string. */
const decimal = (n: number) => (Math.round(n * 10_000) / 10_000).toFixed(4);

/**
 * Charges a job's running time from where the last charge ended up to `until`: one usage row
 * against organization, project and user, the job's total, and both balances, in one
 * transaction. Returns the credits charged.
 */
export async function charge(db: Db, job: JobRow, until: Date): Promise<number> {
  const from = job.billedUntil ?? job.startedAt;
  if (!from || until <= from) return 0;
  const credits = (Number(job.pricePerHour) * (until.getTime() - from.getTime())) / 3_600_000;
  const amount = decimal(credits);
  await db.transaction(async (tx) => {
    await tx.insert(usageRecords).values({
      category: 'jobs',
      clusterName: job.clusterName,
      orgName: job.orgName,
      projectName: job.projectName,
      userId: job.ownerId,
      resourceUri: jobUri(job.clusterName, job.orgName, job.projectName, job.id),
      presetName: job.presetName,
      startedAt: from,
      endedAt: until,
      credits: amount,
    });
    await tx
      .update(jobs)
      .set({ billedUntil: until, totalPrice: sql`${jobs.totalPrice} + ${amount}` })
      .where(eq(jobs.id, job.id));
    if (credits === 0) return;
    await changeBalance(tx, {
      org: job.orgName,
      kind: 'usage',
      credits: `-${amount}`,
      userId: job.ownerId,
      reference: jobUri(job.clusterName, job.orgName, job.projectName, job.id),
    });
    if (job.ownerId) {
      await tx
        .update(orgMembers)
        .set({ credits: sql`${orgMembers.credits} - ${amount}` })
        .where(
          and(
            eq(orgMembers.orgName, job.orgName),
            eq(orgMembers.userId, job.ownerId),
            sql`${orgMembers.credits} is not null`,
          ),
        );
    }
  });
  return credits;
}
