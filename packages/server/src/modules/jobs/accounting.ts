import { jobUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { isRollback } from '../../db/errors.js';
import { orgCredits } from '../billing/store-ledger.js';
import { orgLink } from '../quotas/store.js';
import { activeJobCount, type JobRow } from './store.js';
import { claimCharge, memberCredits } from './store-accounting.js';
import { accrue, decimal } from '../billing/metering.js';

/**
 * Credits and quotas: the jobs service owns them; billing only reads `usage_records` (docs/billing.md).
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
  const o = await orgCredits(db, org);
  if (o && o.credits !== null && Number(o.credits) <= 0) {
    return { ok: false, who: `organization ${org}` };
  }
  if (userId) {
    const m = await memberCredits(db, org, userId);
    if (m && m.credits !== null && Number(m.credits) <= 0) {
      return { ok: false, who: `user ${m.username} in organization ${org}` };
    }
  }
  return { ok: true };
}

/** The organization's `totalRunningJobs` quota on a cluster and how much of it is taken. */
export async function jobsQuota(db: Db, cluster: string, org: string, except?: string) {
  const quota = (await orgLink(db, cluster, org))?.quotaTotalRunningJobs ?? null;
  if (quota === null) return { exhausted: false, quota: null, used: 0 };
  const used = await activeJobCount(db, cluster, org, except);
  return { exhausted: used >= quota, quota, used };
}

/**
 * What a job's usage is charged under when a module above jobs owns it (an app instance's jobs
 * under `apps`, named by the instance): handed in by app.ts, so jobs imports none of them.
 * null: the job's own row, under `jobs`.
 */
export type ChargeSubject = (
  db: Db,
  job: JobRow,
) => Promise<{ category: 'apps'; resourceId: string } | null>;

/**
 * The credits of a job's running time from `from` to `until`, in the ten-thousandths the
 * columns keep: the rounded cost since the job first started at `until` less the same at `from`.
 * Successive charges then add up to the rounded cost of the whole run, where rounding each
 * minute's charge on its own would lose up to 0.00005 credits a minute (6 % at 0.05 an hour).
 */
function creditsBetween(job: JobRow, from: Date, until: Date) {
  const origin = (job.startedAt ?? from).getTime();
  const rate = Number(job.pricePerHour);
  const at = (t: Date) => Math.round((rate * (t.getTime() - origin) * 10_000) / 3_600_000);
  return (at(until) - at(from)) / 10_000;
}

/**
 * Charges a job's running time from where the last committed charge ended up to `until`: one
 * usage row, the job's total and both balances, in one transaction. The job's `billed_until`
 * is moved only from the value this charge started from (compare-and-set): a charge of the same
 * period by another replica, or with a stale row, charges nothing. A charge that did not commit
 * left `billed_until` where it was, so the next one covers its period. Returns the credits
 * charged.
 */
export async function charge(
  db: Db,
  job: JobRow,
  until: Date,
  chargedAs?: ChargeSubject,
): Promise<number> {
  const from = job.billedUntil ?? job.startedAt;
  if (!from || until <= from) return 0;
  const credits = creditsBetween(job, from, until);
  const amount = decimal(credits);
  const subject = (await chargedAs?.(db, job)) ?? {
    category: 'jobs' as const,
    resourceId: job.id,
  };
  return db
    .transaction(async (tx) => {
      if (!(await claimCharge(tx, job, until, amount))) return 0;
      const charged = await accrue(tx, {
        ...subject,
        cluster: job.clusterName,
        org: job.orgName,
        project: job.projectName,
        userId: job.ownerId,
        resourceUri: jobUri(job.clusterName, job.orgName, job.projectName, job.id),
        presetName: job.presetName,
        from,
        until,
        credits,
      });
      // The period is on record already: the claim goes back with the transaction.
      if (!charged) tx.rollback();
      return credits;
    })
    .catch((e: unknown) => {
      if (isRollback(e)) return 0;
      throw e;
    });
}
