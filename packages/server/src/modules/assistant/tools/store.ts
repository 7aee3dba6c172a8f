import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { orgMembers } from '../../../db/schema.js';
import { appInstances } from '../../apps/tables.js';
import type { InstanceRow } from '../../apps/store.js';
import type { ProjectPlace } from '../../jobs/store.js';

// What the assistant's tools read that no other area's store answers as they need it.

/** A member's own credits limit in an organization (null: unlimited or not a member). */
export async function memberCredits(db: Db, org: string, userId: string) {
  const [mine] = await db
    .select({ credits: orgMembers.credits })
    .from(orgMembers)
    .where(and(eq(orgMembers.orgName, org), eq(orgMembers.userId, userId)));
  return mine?.credits ?? null;
}

/** The newest installed (not uninstalled) app of a name in a project. */
export async function appNamed(
  db: Db,
  p: ProjectPlace,
  name: string,
): Promise<InstanceRow | undefined> {
  const [row] = await db
    .select()
    .from(appInstances)
    .where(
      and(
        eq(appInstances.clusterName, p.cluster),
        eq(appInstances.orgName, p.org),
        eq(appInstances.projectName, p.project),
        eq(appInstances.name, name),
        ne(appInstances.state, 'uninstalled'),
      ),
    )
    .orderBy(desc(appInstances.createdAt))
    .limit(1);
  return row;
}
