import { and, eq, inArray, lte, notInArray, or } from 'drizzle-orm';
import { FINAL_JOB_STATUSES } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { jobs, orgMembers, organizations } from '../../db/schema.js';

/** The organizations whose balance, and the members whose own limit, is at or below 0. */
export async function broke(db: Db) {
  const [orgs, members] = await Promise.all([
    db
      .select({ name: organizations.name })
      .from(organizations)
      .where(lte(organizations.credits, '0')),
    db
      .select({ org: orgMembers.orgName, userId: orgMembers.userId })
      .from(orgMembers)
      .where(lte(orgMembers.credits, '0')),
  ]);
  return { orgs: orgs.map((o) => o.name), members };
}

/**
 * Jobs handed to the runtime and not finished, of the organizations `orgs` or of the members
 * `members` (a user in an organization).
 */
export function handedOverJobsOf(
  db: Db,
  orgs: string[],
  members: { org: string; userId: string }[],
) {
  return db
    .select({ id: jobs.id, org: jobs.orgName, ownerId: jobs.ownerId, owner: jobs.owner })
    .from(jobs)
    .where(
      and(
        eq(jobs.materialized, true),
        notInArray(jobs.status, [...FINAL_JOB_STATUSES]),
        or(
          orgs.length ? inArray(jobs.orgName, orgs) : undefined,
          ...members.map((m) => and(eq(jobs.orgName, m.org), eq(jobs.ownerId, m.userId))),
        ),
      ),
    );
}
