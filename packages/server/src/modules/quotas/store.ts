import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusterOrgs } from '../../db/schema.js';
import type { OrgPolicy } from '../scheduler/decide.js';
import type { Quota } from '../scheduler/weights.js';

/** What the scheduler weighs a cluster's organizations and projects by (docs/scheduling.md). */
export interface ClusterQuotas {
  orgs: Map<string, OrgPolicy>;
  /** Keyed `org/project`. */
  projects: Map<string, Quota>;
}

/** Every quota set on the cluster: its organizations' and their projects'. */
export async function clusterQuotas(db: Db, cluster: string): Promise<ClusterQuotas> {
  const rows = await db
    .select({ org: clusterOrgs.orgName, jobs: clusterOrgs.quotaTotalRunningJobs })
    .from(clusterOrgs)
    .where(eq(clusterOrgs.clusterName, cluster));
  const orgs = new Map<string, OrgPolicy>();
  for (const r of rows) if (r.jobs !== null) orgs.set(r.org, { maxRunningJobs: r.jobs });
  return { orgs, projects: new Map() };
}
