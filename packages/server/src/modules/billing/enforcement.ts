import { and, eq, inArray, lte, notInArray, or } from 'drizzle-orm';
import { FINAL_JOB_STATUSES } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { jobs, orgMembers, organizations } from '../../db/schema.js';

/**
 * Work of an organization (or of a user in it) whose balance reached 0 is stopped within this
 * long: the jobs service looks this often, and right after each round of charges.
 */
export const ENFORCEMENT_PERIOD_MS = 15_000;

/** A job to stop, and whose credits ran out (for its history, in the admission's words). */
export interface Exhausted {
  jobId: string;
  who: string;
}

/**
 * Jobs handed to the runtime (running, or starting) whose organization's balance, or whose
 * owner's own limit in it, is at or below 0. Jobs not yet handed over wait for credits at
 * scheduling instead.
 */
export async function exhaustedJobs(db: Db): Promise<Exhausted[]> {
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
  if (orgs.length === 0 && members.length === 0) return [];
  const rows = await db
    .select({ id: jobs.id, org: jobs.orgName, ownerId: jobs.ownerId, owner: jobs.owner })
    .from(jobs)
    .where(
      and(
        eq(jobs.materialized, true),
        notInArray(jobs.status, [...FINAL_JOB_STATUSES]),
        or(
          orgs.length
            ? inArray(
                jobs.orgName,
                orgs.map((o) => o.name),
              )
            : undefined,
          ...members.map((m) => and(eq(jobs.orgName, m.org), eq(jobs.ownerId, m.userId))),
        ),
      ),
    );
  const broke = new Set(orgs.map((o) => o.name));
  return rows.map((j) => ({
    jobId: j.id,
    who: broke.has(j.org) ? `organization ${j.org}` : `user ${j.owner} in organization ${j.org}`,
  }));
}
