import { and, eq } from 'drizzle-orm';
import type { MemberRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { clusterOrgs, projectMembers, projects } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { orgRoleOf } from '../../auth/permissions.js';
import { projectExists } from './store.js';

export const PROJECT_TAKEN = 'Project with such name already exits';

/**
 * Where a user may create a project: in an organization they belong to (a system admin: any), on a
 * cluster linked to that organization. Anything else looks like it does not exist.
 */
export async function assertProjectPlace(db: Db, caller: Principal, cluster: string, org: string) {
  if (caller.systemRole !== 'admin' && !(await orgRoleOf(db, caller.id, org))) {
    throw notFound('Organization not found');
  }
  const [link] = await db
    .select()
    .from(clusterOrgs)
    .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));
  if (!link) throw notFound(`Cluster ${cluster} is not available to organization ${org}`);
}

/** Creates a project with its creator as admin. */
export async function createProject(
  db: Db,
  caller: Principal,
  p: {
    name: string;
    orgName: string;
    clusterName: string;
    isDefault: boolean;
    defaultRole: MemberRole;
  },
) {
  await assertProjectPlace(db, caller, p.clusterName, p.orgName);
  if (await projectExists(db, p.clusterName, p.orgName, p.name))
    throw conflict(PROJECT_TAKEN, 'name');
  await db.transaction(async (tx) => {
    if (p.isDefault) {
      // One default project per organization and cluster.
      await tx
        .update(projects)
        .set({ isDefault: false })
        .where(and(eq(projects.clusterName, p.clusterName), eq(projects.orgName, p.orgName)));
    }
    const inserted = await tx
      .insert(projects)
      .values({ ...p })
      .onConflictDoNothing()
      .returning({ id: projects.id });
    if (inserted.length === 0) throw conflict(PROJECT_TAKEN, 'name');
    await tx
      .insert(projectMembers)
      .values({ projectId: inserted[0].id, userId: caller.id, role: 'admin' });
  });
}
