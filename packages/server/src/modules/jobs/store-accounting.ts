import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { jobs, orgMembers, users } from '../../db/schema.js';
import type { JobRow } from './store.js';

/** A member's own credit limit in an organization (null: unlimited), with their name to say. */
export async function memberCredits(db: Db, org: string, userId: string) {
  const [row] = await db
    .select({ credits: orgMembers.credits, username: users.username })
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.userId))
    .where(and(eq(orgMembers.orgName, org), eq(orgMembers.userId, userId)));
  return row ?? null;
}

/**
 * Moves the job's `billed_until` to `until` and adds `amount` to its total, only from the value
 * the charge started from (compare-and-set): false when another charge moved it first.
 */
export async function claimCharge(
  tx: Pick<Db, 'update'>,
  job: JobRow,
  until: Date,
  amount: string,
) {
  const [claimed] = await tx
    .update(jobs)
    .set({ billedUntil: until, totalPrice: sql`${jobs.totalPrice} + ${amount}::numeric` })
    .where(
      and(
        eq(jobs.id, job.id),
        job.billedUntil ? eq(jobs.billedUntil, job.billedUntil) : isNull(jobs.billedUntil),
      ),
    )
    .returning({ id: jobs.id });
  return !!claimed;
}
