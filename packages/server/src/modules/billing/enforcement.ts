import type { Db } from '../../db/client.js';
import { broke, handedOverJobsOf } from './store-enforcement.js';

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
  const { orgs, members } = await broke(db);
  if (orgs.length === 0 && members.length === 0) return [];
  const rows = await handedOverJobsOf(db, orgs, members);
  const brokeOrgs = new Set(orgs);
  return rows.map((j) => ({
    jobId: j.id,
    who: brokeOrgs.has(j.org)
      ? `organization ${j.org}`
      : `user ${j.owner} in organization ${j.org}`,
  }));
}
